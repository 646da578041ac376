namespace SensorPipeline.Fuzz.Targets;

/// <summary>What the two log targets share: the input as a log file in a fresh directory, resealed when its mode byte
/// asks, and a refused start that must name the file.</summary>
internal static class LogInput
{
    /// <summary>Writes the input after its mode byte as <paramref name="fileName"/> in a fresh directory <paramref name="name"/>,
    /// first through <paramref name="seal"/> when bit 0 of the mode byte is set; null for an empty input.</summary>
    public static string? Write(byte[] input, string name, string fileName, SealAction seal)
    {
        if (input.Length == 0)
        {
            return null;
        }

        var file = input[1..];
        if ((input[0] & 1) != 0)
        {
            seal(file);
        }

        var directory = ScratchDirectory.Fresh(name);
        File.WriteAllBytes(Path.Combine(directory, fileName), file);
        return directory;
    }

    /// <summary>Opens the log; a refused start must say which file to restore or move away.</summary>
    public static T OpenNamingTheFile<T>(string fileName, Func<T> open)
    {
        try
        {
            return open();
        }
        catch (InvalidDataException e) when (!e.Message.Contains(fileName, StringComparison.Ordinal))
        {
            throw new InvariantException("the start was refused without naming the file: " + e.Message);
        }
    }

    /// <summary>Reseals a log file's records in place.</summary>
    public delegate void SealAction(Span<byte> file);
}
