namespace SensorPipeline.Stack;

/// <summary>A fault the Cosmos DB emulator answers with (its <c>/_emulator/faults</c> body).</summary>
/// <param name="Status">HTTP status to answer, e.g. 429, 503, 403.</param>
/// <param name="Seconds">How long.</param>
/// <param name="WritesOnly">Only writes fail (reads still answer).</param>
/// <param name="Probability">Share of requests that fail, 0..1.</param>
/// <param name="RetryAfterMs">The <c>x-ms-retry-after-ms</c> of a 429.</param>
/// <param name="SubStatus">The <c>x-ms-substatus</c>.</param>
/// <param name="DocumentContains">Only document writes whose document contains this text fail, each on its own (400 and 413 allowed).</param>
/// <param name="Container">Only requests to this container fail (400 and 413 allowed: e.g. 400/1001 on every write).</param>
public sealed record InjectedStoreFault(int Status, double Seconds, bool WritesOnly = false, double Probability = 1, int? RetryAfterMs = null, int? SubStatus = null,
    string? DocumentContains = null, string? Container = null);
