using System.Globalization;
using System.Net;
using System.Net.Http.Headers;
using SensorPipeline.Stack;
using SensorPipeline.Toolkit;

namespace SensorPipeline.EndToEnd.Tests;

/// <summary>
/// The whole local stack (<see cref="LocalPipeline"/>) over a fresh temporary data directory, with anonymous sends
/// allowed so a test can post raw event bodies to any hub or partition; stops the stack and deletes the directory on
/// dispose. The start-up every raw-send test shares.
/// </summary>
internal sealed class RawSendPipeline : IAsyncDisposable
{
    private readonly string _data;

    private RawSendPipeline(LocalPipeline pipeline, string data)
    {
        Pipeline = pipeline;
        _data = data;
        Http = new HttpClient { BaseAddress = pipeline.DevHostUrl };
    }

    public LocalPipeline Pipeline { get; }

    /// <summary>A client on devhost's address.</summary>
    public HttpClient Http { get; }

    /// <summary>Starts the stack writing to database <paramref name="database"/>.</summary>
    public static Task<RawSendPipeline> StartAsync(string database, CancellationToken cancellationToken) =>
        StartAsync(database, null, [], cancellationToken);

    /// <summary>
    /// Starts the stack writing to database <paramref name="database"/>, with separate Functions-host instances when
    /// <paramref name="instances"/> is set (<see cref="StackOptions.Instances"/>; 0 starts none, for the test to start its own
    /// through <see cref="LocalPipeline.Fleet"/>), each given <paramref name="instanceSettings"/>.
    /// </summary>
    public static async Task<RawSendPipeline> StartAsync(string database, InstanceCount? instances, IReadOnlyList<string> instanceSettings, CancellationToken cancellationToken)
    {
        var data = Path.Combine(Path.GetTempPath(), "sensorpipeline-" + database + "-" + Guid.NewGuid().ToString("N"));
        try
        {
            var pipeline = await LocalPipeline.StartAsync(RepoLayout.Discover(), new StackOptions
            {
                DataDirectory = data,
                DatabaseName = database,
                Environment = new Dictionary<string, string> { ["EventHubs__Sas__AllowAnonymous"] = "true" },
                Instances = instances,
                InstanceSettings = instanceSettings,
            }, cancellationToken);
            return new RawSendPipeline(pipeline, data);
        }
        catch
        {
            DeleteData(data);
            throw;
        }
    }

    /// <summary>Posts one event body to <paramref name="path"/> (e.g. <c>ingestion/messages</c>), asserts 201 and
    /// returns the event's sequence number.</summary>
    public async Task<long> SendAsync(string path, byte[] body, CancellationToken cancellationToken)
    {
        using var content = new ByteArrayContent(body);
        content.Headers.ContentType = new MediaTypeHeaderValue("application/octet-stream");
        using var response = await Http.PostAsync(new Uri(path, UriKind.Relative), content, cancellationToken);
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        return long.Parse(response.Headers.GetValues("X-First-Sequence-Number").Single(), CultureInfo.InvariantCulture);
    }

    public async ValueTask DisposeAsync()
    {
        Http.Dispose();
        await Pipeline.DisposeAsync();
        DeleteData(_data);
    }

    private static void DeleteData(string data)
    {
        try
        {
            Directory.Delete(data, recursive: true);
        }
        catch (DirectoryNotFoundException)
        {
            // Never created: the stack failed before writing anything.
        }
        catch (IOException)
        {
            // A log file still held by a just-stopped child: the temp folder is cleaned by the OS later.
        }
    }
}
