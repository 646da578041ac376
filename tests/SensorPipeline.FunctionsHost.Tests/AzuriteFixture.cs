namespace SensorPipeline.Testing;

/// <summary>Azurite's Blob service (<see cref="AzuriteProcess"/>) on a free loopback port with its data in a temporary
/// directory, removed on dispose: the <c>AzureWebJobsStorage</c> of the apps and processors under test (the Event Hubs
/// tests compile this file too).</summary>
public sealed class AzuriteFixture : IAsyncLifetime
{
    private AzuriteProcess? _azurite;

    /// <summary>A Storage connection string for the Blob service.</summary>
    public string ConnectionString => (_azurite ?? throw new InvalidOperationException("not started")).ConnectionString;

    public async Task InitializeAsync() => _azurite = await AzuriteProcess.StartAsync();

    public async Task DisposeAsync()
    {
        if (_azurite is not null)
        {
            await _azurite.DisposeAsync();
        }
    }
}
