using System.Reflection;

namespace SensorPipeline.Emulators.Common;

/// <summary>A file embedded in an assembly at build time, read whole: the pages devhost serves (the App Insights
/// emulator's dashboard, the explorer and its map's assets) ship inside their assemblies, so they work offline and from
/// any working directory.</summary>
public static class EmbeddedFile
{
    /// <summary>The bytes of the resource named <paramref name="name"/> (its <c>LogicalName</c>) in
    /// <paramref name="assembly"/>, or null when the build did not embed it.</summary>
    public static byte[]? TryRead(Assembly assembly, string name)
    {
        ArgumentNullException.ThrowIfNull(assembly);
        ArgumentException.ThrowIfNullOrEmpty(name);
        using var stream = assembly.GetManifestResourceStream(name);
        if (stream is null)
        {
            return null;
        }

        using var copy = new MemoryStream();
        stream.CopyTo(copy);
        return copy.ToArray();
    }

    /// <summary>The bytes of a resource the build always embeds; a missing one is a broken build, named in the error.</summary>
    public static byte[] Read(Assembly assembly, string name) =>
        TryRead(assembly, name) ?? throw new InvalidOperationException($"{name} is not embedded in {assembly.GetName().Name}");
}
