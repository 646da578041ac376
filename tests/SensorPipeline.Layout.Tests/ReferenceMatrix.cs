namespace SensorPipeline.Layout.Tests;

/// <summary>Which system of the repository a project belongs to, from its top-level folder.</summary>
public enum Room
{
    /// <summary><c>core/</c>: the pure core.</summary>
    Core,

    /// <summary><c>functions/</c>, <c>infra/</c>: what is deployed to Azure, and its deployment tools.</summary>
    Product,

    /// <summary><c>clients/</c>: what a client of the local emulators needs.</summary>
    ClientLibrary,

    /// <summary><c>emulators/SensorPipeline.Emulators.Common</c>: what the emulators share.</summary>
    EmulatorShared,

    /// <summary><c>emulators/</c>: the local stand-ins for Azure services.</summary>
    Emulator,

    /// <summary><c>loadgen/</c>: the load generator users also point at Azure, and its re-drive library (devhost's
    /// explorer re-drives through it too).</summary>
    LoadGen,

    /// <summary><c>devhost/</c>: the devhost program, the stack, the toolkit.</summary>
    DevHost,

    /// <summary><c>tests/</c>, <c>bench/</c>: the top; nothing references them.</summary>
    TestsAndBenches,

    /// <summary><c>cli/</c>: the one command line (option types, exit codes, entry point) every program parses with.</summary>
    CommandLine,
}

/// <summary>
/// The allowed references between projects. The product references only the core and packages; loadgen the core and
/// the client library; an emulator its shared library, the client library and packages, never another emulator except
/// where <see cref="Exceptions"/> says why; the harness anything below it; nothing references upward. Every room that
/// holds a program (the product's plan, the emulators, loadgen, devhost and the stack, the benches and test programs)
/// may reference the command line, which references only its package, so every program parses arguments one way.
/// </summary>
public static class ReferenceMatrix
{
    /// <summary>References outside the room rules, each with its reason.</summary>
    public static readonly IReadOnlyDictionary<(string From, string To), string> Exceptions = new Dictionary<(string, string), string>
    {
        [("SensorPipeline.CosmosEmulator", "SensorPipeline.CosmosEmulator.Query")] =
            "the Cosmos DB emulator's own SQL engine, a separate project so it is tested and measured without a server",
        [("SensorPipeline.Fuzz.Tests", "SensorPipeline.Fuzz")] =
            "the corpus replay runs the fuzz harness's own targets, so each target is defined once for afl++ and for the tests",
        [("SensorPipeline.EventHubs.Tests", "SensorPipeline.EventHubs.ProcessorApp")] =
            "built, not referenced as a library: the failover test runs the SDK's event processor as separate processes and kills one",
        [("SensorPipeline.ApplicationInsights", "SensorPipeline.Core")] =
            "the App Insights sink reads the metric names the handler sends, defined once in the core",
        [("SensorPipeline.CosmosEmulator", "SensorPipeline.Core")] =
            "the Cosmos DB emulator places documents in ranges by the effective partition key hash the splitter routes devices by, defined once in the core",
    };

    private static readonly Dictionary<Room, Room[]> Allowed = new()
    {
        [Room.Core] = [],
        [Room.Product] = [Room.Core, Room.CommandLine],
        [Room.ClientLibrary] = [],
        [Room.EmulatorShared] = [],
        [Room.Emulator] = [Room.EmulatorShared, Room.ClientLibrary, Room.CommandLine],
        [Room.LoadGen] = [Room.Core, Room.ClientLibrary, Room.CommandLine, Room.LoadGen],
        [Room.DevHost] = [Room.Core, Room.Product, Room.ClientLibrary, Room.EmulatorShared, Room.Emulator, Room.LoadGen, Room.DevHost, Room.CommandLine],
        [Room.TestsAndBenches] = [Room.Core, Room.Product, Room.ClientLibrary, Room.EmulatorShared, Room.Emulator, Room.LoadGen, Room.DevHost, Room.CommandLine],
        [Room.CommandLine] = [],
    };

    /// <summary>The room of a project in <paramref name="folder"/> (relative to the root), or null for a folder the
    /// matrix does not know.</summary>
    public static Room? RoomOf(string folder)
    {
        var parts = folder.Split('/');
        return parts[0] switch
        {
            "core" => Room.Core,
            "functions" or "infra" => Room.Product,
            "clients" => Room.ClientLibrary,
            "emulators" when parts.Length > 1 && parts[1] == "SensorPipeline.Emulators.Common" => Room.EmulatorShared,
            "emulators" => Room.Emulator,
            "loadgen" => Room.LoadGen,
            "devhost" => Room.DevHost,
            "tests" or "bench" => Room.TestsAndBenches,
            "cli" => Room.CommandLine,
            _ => null,
        };
    }

    /// <summary>Why the reference from <paramref name="from"/> to <paramref name="to"/> is not allowed, or null when it is.</summary>
    public static string? Violation(ProjectFile from, ProjectFile to)
    {
        if (RoomOf(from.Folder) is not { } fromRoom)
        {
            return $"{from.Name} is in {from.Folder}, a folder the reference matrix does not know";
        }

        if (RoomOf(to.Folder) is not { } toRoom)
        {
            return $"{to.Name} is in {to.Folder}, a folder the reference matrix does not know";
        }

        if (Exceptions.ContainsKey((from.Name, to.Name)) || Allowed[fromRoom].Contains(toRoom))
        {
            return null;
        }

        return $"{from.Name} ({fromRoom}) references {to.Name} ({toRoom}): a {fromRoom} project may reference only "
            + (Allowed[fromRoom].Length == 0 ? "packages" : string.Join(", ", Allowed[fromRoom]) + " and packages");
    }

    /// <summary>Every reference among <paramref name="projects"/> that breaks the matrix, one line each.</summary>
    public static IReadOnlyList<string> Violations(IReadOnlyList<ProjectFile> projects)
    {
        var byName = projects.ToDictionary(p => p.Name);
        var violations = new List<string>();
        foreach (var project in projects)
        {
            if (RoomOf(project.Folder) is null)
            {
                violations.Add($"{project.Name} is in {project.Folder}, a folder the reference matrix does not know");
            }

            foreach (var reference in project.References)
            {
                if (!byName.TryGetValue(reference, out var target))
                {
                    violations.Add($"{project.Name} references {reference}, which is not a project of the repository");
                }
                else if (Violation(project, target) is { } why)
                {
                    violations.Add(why);
                }
            }
        }

        return violations;
    }
}
