using System.Runtime.InteropServices;

namespace SensorPipeline.Emulators.Common;

/// <summary>fsync of a directory, so a file created (or renamed) in it survives power loss: fsync of the file alone
/// does not make its directory entry durable (POSIX gives no other way; .NET has no API for it). A no-op off Linux.</summary>
public static partial class DirectorySync
{
    private const int ReadOnlyDirectory = 0x10000; // O_RDONLY | O_DIRECTORY on Linux

    public static void Flush(string directory)
    {
        if (!OperatingSystem.IsLinux())
        {
            return;
        }

        var fd = Open(directory, ReadOnlyDirectory);
        if (fd < 0)
        {
            throw new IOException($"open({directory}) failed: errno {Marshal.GetLastPInvokeError()}");
        }

        try
        {
            if (Fsync(fd) != 0)
            {
                throw new IOException($"fsync({directory}) failed: errno {Marshal.GetLastPInvokeError()}");
            }
        }
        finally
        {
            _ = Close(fd);
        }
    }

    [LibraryImport("libc", EntryPoint = "open", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int Open(string path, int flags);

    [LibraryImport("libc", EntryPoint = "fsync", SetLastError = true)]
    private static partial int Fsync(int fd);

    [LibraryImport("libc", EntryPoint = "close")]
    private static partial int Close(int fd);
}
