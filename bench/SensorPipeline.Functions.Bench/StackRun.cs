namespace SensorPipeline.Functions.Bench;

/// <summary>How the benches that start the local stack run: Ctrl+C cancels; the stack's failures end with a message
/// naming its logs.</summary>
internal static class StackRun
{
    /// <summary>Runs <paramref name="body"/>; 130 when cancelled, 1 when the stack failed, else its own exit code.</summary>
    public static async Task<int> RunAsync(string command, string data, Func<CancellationToken, Task<int>> body)
    {
        using var cancel = new CancellationTokenSource();
        Console.CancelKeyPress += (_, e) =>
        {
            e.Cancel = true;
            cancel.Cancel();
        };
        try
        {
            return await body(cancel.Token);
        }
        catch (OperationCanceledException)
        {
            return 130;
        }
        catch (Exception e) when (e is InvalidOperationException or TimeoutException or IOException or HttpRequestException)
        {
            await Console.Error.WriteLineAsync($"{command}: {e.Message} (logs in {data}/logs)");
            return 1;
        }
    }
}
