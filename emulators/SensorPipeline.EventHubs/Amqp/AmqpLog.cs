using Microsoft.Extensions.Logging;

namespace SensorPipeline.EventHubs.Amqp;

internal static partial class AmqpLog
{
    [LoggerMessage(EventId = 300, Level = LogLevel.Information, Message = "AMQP connection {Remote} opened (container {Container})")]
    public static partial void ConnectionOpened(ILogger logger, string remote, string? container);

    [LoggerMessage(EventId = 301, Level = LogLevel.Warning, Message = "AMQP connection {Remote} refused: {Reason}")]
    public static partial void ConnectionRefused(ILogger logger, string remote, string reason);

    [LoggerMessage(EventId = 302, Level = LogLevel.Information, Message = "AMQP link '{Name}' on {Address} refused: {Reason}")]
    public static partial void LinkRefused(ILogger logger, string name, string? address, string reason);

    [LoggerMessage(EventId = 307, Level = LogLevel.Information, Message = "AMQP link attaches on {Address} refused {Count} more times on connection {Remote} in {Seconds:N0} s: {Reason}")]
    public static partial void LinkRefusalsRepeated(ILogger logger, string? address, int count, string remote, double seconds, string reason);

    [LoggerMessage(EventId = 303, Level = LogLevel.Information, Message = "AMQP transfer to {Address} rejected ({Condition}): {Reason}")]
    public static partial void SendRefused(ILogger logger, string address, string condition, string reason);

    [LoggerMessage(EventId = 304, Level = LogLevel.Debug, Message = "AMQP receiver on {Address} ended: {Reason}")]
    public static partial void ReceiverEnded(ILogger logger, string address, string reason);

    [LoggerMessage(EventId = 305, Level = LogLevel.Information, Message = "AMQP also listening on 127.0.0.1:{Port}")]
    public static partial void ExtraPortListening(ILogger logger, int port);

    [LoggerMessage(EventId = 306, Level = LogLevel.Warning, Message = "AMQP port 127.0.0.1:{Port} is in use; not listening there (EventHubs:Amqp:ExtraPort)")]
    public static partial void ExtraPortBusy(ILogger logger, int port);
}
