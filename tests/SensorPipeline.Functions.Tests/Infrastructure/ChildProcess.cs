using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.RegularExpressions;

namespace SensorPipeline.Functions.Tests.Infrastructure;

/// <summary>A child process whose output is collected, with a wait for the line that announces its URL.</summary>
internal sealed partial class ChildProcess : IDisposable
{
    private readonly Process _process;
    private readonly StringBuilder _output = new();
    private readonly TaskCompletionSource<Uri> _url = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly Regex _announce;

    private ChildProcess(ProcessStartInfo start, Regex announce)
    {
        _announce = announce;
        _process = new Process { StartInfo = start, EnableRaisingEvents = true };
        _process.OutputDataReceived += (_, e) => OnLine(e.Data);
        _process.ErrorDataReceived += (_, e) => OnLine(e.Data);
        _process.Exited += (_, _) => _url.TrySetException(new InvalidOperationException($"{start.FileName} exited with {SafeExitCode()} before announcing its URL:\n{Output}"));
        _process.Start();
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
    }

    public int Id => _process.Id;

    public string Output
    {
        get
        {
            lock (_output)
            {
                return _output.ToString();
            }
        }
    }

    public static ChildProcess Start(string fileName, IEnumerable<string> arguments, IDictionary<string, string?> environment, Regex announce)
    {
        var start = new ProcessStartInfo(fileName)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = RepoPaths.Root,
        };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        foreach (var (key, value) in environment)
        {
            start.Environment[key] = value;
        }

        return new ChildProcess(start, announce);
    }

    /// <summary>The URL the process printed, or an exception with its output if it exited or took too long.</summary>
    public async Task<Uri> WaitForUrlAsync(TimeSpan timeout) => await _url.Task.WaitAsync(timeout);

    /// <summary>Waits for the process to exit (for start-up failure tests) and returns its exit code.</summary>
    public async Task<int> WaitForExitAsync(TimeSpan timeout)
    {
        using var cancel = new CancellationTokenSource(timeout);
        await _process.WaitForExitAsync(cancel.Token);
        return _process.ExitCode;
    }

    /// <summary>SIGSTOP: the process keeps its memory and sockets but answers nothing.</summary>
    public void Freeze() => Signal(SigStop);

    /// <summary>SIGCONT: it carries on where it stopped.</summary>
    public void Thaw() => Signal(SigCont);

    public void Dispose()
    {
        try
        {
            if (!_process.HasExited)
            {
                Signal(SigCont); // a frozen process cannot act on SIGKILL's cleanup otherwise
                _process.Kill(entireProcessTree: true);
                _process.WaitForExit(5000);
            }
        }
        finally
        {
            _process.Dispose();
        }
    }

    private void OnLine(string? line)
    {
        if (line is null)
        {
            return;
        }

        lock (_output)
        {
            _output.AppendLine(line);
        }

        var match = _announce.Match(line);
        if (match.Success)
        {
            _url.TrySetResult(new Uri(match.Groups["url"].Value));
        }
    }

    private string SafeExitCode() => _process.HasExited ? _process.ExitCode.ToString(System.Globalization.CultureInfo.InvariantCulture) : "?";

    private const int SigCont = 18;
    private const int SigStop = 19;

    private void Signal(int signal)
    {
        if (Kill(_process.Id, signal) != 0)
        {
            throw new InvalidOperationException($"kill({_process.Id}, {signal}) failed: errno {Marshal.GetLastPInvokeError()}");
        }
    }

    [LibraryImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static partial int Kill(int pid, int sig);
}
