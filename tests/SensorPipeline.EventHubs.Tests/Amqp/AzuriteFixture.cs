namespace SensorPipeline.EventHubs.Tests.Amqp;

/// <summary>Azurite's Blob service (<see cref="AzuriteProcess"/>) on a free loopback port with its data in a temporary
/// directory, removed on dispose: the checkpoint store of the processors under test.</summary>
public sealed class AzuriteFixture : IAsyncLifetime
{
    private AzuriteProcess? _azurite;

    /// <summary>A Storage connection string for the Blob service, as the Functions host's <c>AzureWebJobsStorage</c>.</summary>
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
