using SensorPipeline.Fuzz;

// The fuzz harness (README.md beside this file):
//   list                          the targets and what each covers
//   afl <target>                  one target under afl-fuzz (SharpFuzz's protocol; afl-fuzz starts this)
//   replay <target> <path>...     each file (or every file of each folder) through the target, one line each
//   corpus <corpus-folder>        writes the seed inputs, made by the real encoders, into corpus-folder/<target>/
return args switch
{
    ["list"] => List(),
    ["afl", var name] => Afl(Target(name)),
    ["replay", var name, .. var paths] when paths.Length > 0 => Replay(Target(name), paths),
    ["corpus", var folder] => SeedCorpus.Write(folder),
    _ => Usage(),
};

static int List()
{
    foreach (var target in FuzzTargets.All)
    {
        Console.WriteLine($"{target.Name,-18} {target.Covers}");
    }

    return 0;
}

static FuzzTarget Target(string name) =>
    FuzzTargets.Find(name) ?? throw new ArgumentException($"no fuzz target '{name}'; `list` names them");

static int Afl(FuzzTarget target)
{
    // The input arrives on a stream per execution; the process stays up between them (SharpFuzz's persistent loop).
    SharpFuzz.Fuzzer.OutOfProcess.Run(stream =>
    {
        using var copy = new MemoryStream();
        stream.CopyTo(copy);
        target.Run(copy.ToArray());
    });
    return 0;
}

static int Replay(FuzzTarget target, string[] paths)
{
    var failed = 0;
    foreach (var file in paths.SelectMany(p => Directory.Exists(p) ? Directory.GetFiles(p).Order(StringComparer.Ordinal) : (IEnumerable<string>)[p]))
    {
        try
        {
            Console.WriteLine($"{(target.Run(File.ReadAllBytes(file)) ? "parsed " : "refused")} {file}");
        }
        catch (Exception e)
        {
            failed++;
            Console.WriteLine($"CRASH   {file}: {e}");
        }
    }

    return failed == 0 ? 0 : 1;
}

static int Usage()
{
    Console.Error.WriteLine("usage: SensorPipeline.Fuzz list | afl <target> | replay <target> <file-or-folder>... | corpus <corpus-folder>");
    return 2;
}
