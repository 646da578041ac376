namespace SensorPipeline.EventHubs;

/// <summary>An application property an AMQP sender gave as a symbol (not a string): kept as such, so an AMQP reader
/// gets a symbol back. REST readers and the Functions host see its text.</summary>
/// <param name="Value">The symbol's ASCII text.</param>
public sealed record AmqpSymbolValue(string Value)
{
    public override string ToString() => Value;
}
