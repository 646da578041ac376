namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>
/// One azurite for this test assembly, started by the first test app that needs it, serving a storage account per
/// app: a node process's start costs 1–3 s on a quiet machine (10 s at load average 18) and the assembly has ~30 apps.
/// Every Functions host keeps its blobs in the same container, so the accounts are what keep one app's ownership and
/// checkpoints apart from another's, as an azurite each did. It stops with the test process: the child-process reaper
/// kills its process group, and its temporary folder is deleted on exit.
/// </summary>
internal static class SharedAzurite
{
    /// <summary>Accounts azurite is started with: more than the assembly's test apps.</summary>
    private const int Accounts = 128;

    private static readonly Lazy<Task<AzuriteProcess>> Process = new(StartAsync);
    private static int _rented;

    /// <summary>A Blob service connection string for an account no other caller gets.</summary>
    public static async Task<string> RentAccountAsync()
    {
        var index = Interlocked.Increment(ref _rented);
        if (index > Accounts)
        {
            throw new InvalidOperationException($"the shared azurite serves {Accounts} accounts and all are rented: raise {nameof(SharedAzurite)}.{nameof(Accounts)}");
        }

        var azurite = await Process.Value;
        return azurite.ConnectionStringFor(AccountName(index));
    }

    private static string AccountName(int index) => $"app{index:D3}";

    private static async Task<AzuriteProcess> StartAsync()
    {
        var azurite = await AzuriteProcess.StartAsync(Enumerable.Range(1, Accounts).Select(AccountName).ToArray());
        AppDomain.CurrentDomain.ProcessExit += (_, _) => azurite.DisposeAsync().AsTask().Wait(TimeSpan.FromSeconds(10));
        return azurite;
    }
}
