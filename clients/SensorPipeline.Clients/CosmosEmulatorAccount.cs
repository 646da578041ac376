namespace SensorPipeline.Clients;

/// <summary>The local Cosmos DB emulator's account, as the emulator serves it and its local clients reach it.</summary>
public static class CosmosEmulatorAccount
{
    /// <summary>The Azure Cosmos DB emulator's published, well-known account key: the local emulator checks request
    /// signatures with it, and local configuration (never Azure's) hands it to clients.</summary>
    public const string Key = "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";

    /// <summary>The folder, under the emulator's data directory, holding only its certificate as PEM: named in
    /// <c>SSL_CERT_DIR</c> for a process, it makes .NET on Linux trust the emulator like any server, with no code.</summary>
    public const string TrustDirectoryName = "trust";

    /// <summary>The header every request to the emulator's admin API (<c>/_emulator/…</c>) must carry, so a browser
    /// cannot send it a simple cross-site request.</summary>
    public const string AdminHeader = "x-emulator-admin";
}
