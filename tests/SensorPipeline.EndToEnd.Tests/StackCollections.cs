namespace SensorPipeline.EndToEnd.Tests;

/// <summary>
/// The tests here each start a whole local stack, a publish or the script's own test run, and each loads a core or
/// more. They run in two collections, one test at a time within each and the two side by side: two at once keep a
/// 2-core machine busy through the tests' drains and waits without oversubscribing it, where one at a time made this
/// project the suite's critical path. <see cref="Readings"/> holds the tests of readings through the chain;
/// <see cref="Commands"/> those of the stack's commands, faults and restarts.
/// </summary>
public static class StackCollections
{
    public const string Readings = "readings through the chain";
    public const string Commands = "the stack's commands, faults and restarts";
}

[CollectionDefinition(StackCollections.Readings)]
public sealed class ReadingsGroup;

[CollectionDefinition(StackCollections.Commands)]
public sealed class CommandsGroup;
