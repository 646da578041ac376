using SensorPipeline.EventHubs.Http;
using SensorPipeline.Clients;

namespace SensorPipeline.EventHubs.Tests;

[Trait("Category", "Fast")]
public sealed class HeaderPropertiesTests
{
    [Theory]
    [InlineData("42", 42)]
    [InlineData("-7", -7)]
    [InlineData("5000000000", 5000000000L)]
    [InlineData("2.5", 2.5)]
    [InlineData("1e3", 1000.0)]
    [InlineData("true", true)]
    [InlineData("False", false)]
    [InlineData("hello", "hello")]
    [InlineData("\"42\"", "42")]
    [InlineData("NaN", "NaN")]
    [InlineData("", "")]
    public void Typed_HeaderText_BecomesTheNarrowestType(string text, object expected) =>
        Assert.Equal(expected, HeaderProperties.Typed(text));
}

[Trait("Category", "Fast")]
public sealed class SharedAccessSignatureTests
{
    private static readonly SasOptions Options = new();
    private static readonly DateTimeOffset Now = new(2026, 11, 21, 12, 0, 0, TimeSpan.Zero);

    private static string Token(string uri, string? key = null, TimeSpan? life = null, string? keyName = null) =>
        SharedAccessSignature.Create(uri, keyName ?? Options.KeyName, key ?? Options.Key, Now + (life ?? TimeSpan.FromHours(1)));

    // Known vectors computed independently (Python: urllib.parse.quote(uri, safe=''), hmac/sha256, base64).
    [Theory]
    [InlineData("http://127.0.0.1:5000/ingestion", "RootManageSharedAccessKey", "SAS_KEY_VALUE",
        "SharedAccessSignature sr=http%3A%2F%2F127.0.0.1%3A5000%2Fingestion&sig=%2BJfJvWICL12ebFsMToM0cj2p5qTncbehAf%2BBKZv11Rw%3D&se=1893456000&skn=RootManageSharedAccessKey")]
    [InlineData("https://myns.servicebus.windows.net/my hub", "send-only", "k3y+/=",
        "SharedAccessSignature sr=https%3A%2F%2Fmyns.servicebus.windows.net%2Fmy%20hub&sig=QNj817Yo473BwuB4lm0o9pumdSk5kjF0%2F8xRNmI0fGs%3D&se=1893456000&skn=send-only")]
    public void Create_KnownInputs_MatchesKnownVector(string uri, string keyName, string key, string expected) =>
        Assert.Equal(expected, SharedAccessSignature.Create(uri, keyName, key, DateTimeOffset.FromUnixTimeSeconds(1893456000)));

    [Theory]
    [InlineData("sb://emulatorns1.servicebus.windows.net/", "ingestion/messages")]
    [InlineData("sb://127.0.0.1:7071", "ingestion/messages")]
    [InlineData("http://localhost/ingestion", "ingestion/messages")]
    [InlineData("https://ns.servicebus.windows.net/INGESTION", "ingestion/partitions/1/messages")]
    [InlineData("HTTPS://ns/ingestion/publishers/dev1", "ingestion/publishers/dev1/messages")]
    [InlineData("amqps://ns/ingestion/messages", "ingestion/messages")]
    public void Check_TokenCoveringResource_Accepted(string sr, string resource) =>
        Assert.Null(SharedAccessSignature.Check(Token(sr), resource, Options.KeyName, Options.Key, Now));

    [Theory]
    [InlineData("sb://ns/weather", "ingestion/messages")]
    [InlineData("sb://ns/ingest", "ingestion/messages")]
    [InlineData("sb://ns/ingestion/publishers/dev1", "ingestion/publishers/dev2/messages")]
    [InlineData("sb://ns/ingestion/publishers/dev1", "ingestion/messages")]
    public void Check_TokenForOtherResource_Rejected(string sr, string resource) =>
        Assert.Contains("does not cover", SharedAccessSignature.Check(Token(sr), resource, Options.KeyName, Options.Key, Now), StringComparison.Ordinal);

    [Fact]
    public void Check_WrongKey_Rejected() =>
        Assert.Contains("signature", SharedAccessSignature.Check(Token("sb://ns/", key: "other"), "h/messages", Options.KeyName, Options.Key, Now), StringComparison.Ordinal);

    [Fact]
    public void Check_WrongKeyName_Rejected() =>
        Assert.Contains("key name", SharedAccessSignature.Check(Token("sb://ns/", keyName: "Other"), "h/messages", Options.KeyName, Options.Key, Now), StringComparison.Ordinal);

    [Fact]
    public void Check_Expired_Rejected() =>
        Assert.Contains("expired", SharedAccessSignature.Check(Token("sb://ns/", life: TimeSpan.FromSeconds(-1)), "h/messages", Options.KeyName, Options.Key, Now), StringComparison.Ordinal);

    [Theory]
    [InlineData(null)]
    [InlineData("")]
    [InlineData("Bearer abc")]
    [InlineData("SharedAccessSignature sr=x&se=1")]
    [InlineData("SharedAccessSignature garbage")]
    public void Check_MissingOrMalformed_Rejected(string? header) =>
        Assert.NotNull(SharedAccessSignature.Check(header, "h/messages", Options.KeyName, Options.Key, Now));
}

[Trait("Category", "Fast")]
public sealed class OptionsValidatorTests
{
    [Fact]
    public void Validate_Defaults_Succeed()
    {
        Assert.True(new EventLogOptionsValidator().Validate(null, new EventLogOptions()).Succeeded);
        Assert.True(new SasOptionsValidator().Validate(null, new SasOptions()).Succeeded);
    }

    [Fact]
    public void Validate_OutOfRange_NamesTheKey()
    {
        var result = new EventLogOptionsValidator().Validate(null, new EventLogOptions { SegmentSizeBytes = 10, FlushInterval = TimeSpan.Zero, CacheBytesPerPartition = -1 });
        Assert.Contains("EventHubs:SegmentSizeBytes", result.FailureMessage, StringComparison.Ordinal);
        Assert.Contains("EventHubs:FlushInterval", result.FailureMessage, StringComparison.Ordinal);
        Assert.Contains("EventHubs:CacheBytesPerPartition", result.FailureMessage, StringComparison.Ordinal);
        Assert.Contains("EventHubs:Sas:Key", new SasOptionsValidator().Validate(null, new SasOptions { Key = "" }).FailureMessage, StringComparison.Ordinal);
    }
}

[Trait("Category", "Fast")]
public sealed class SasVerifierTests
{
    [Fact]
    public void Check_CachedToken_StillCheckedForExpiryAndResource()
    {
        var verifier = new SasVerifier(Microsoft.Extensions.Options.Options.Create(new SasOptions()));
        var now = new DateTimeOffset(2026, 11, 21, 12, 0, 0, TimeSpan.Zero);
        var token = SharedAccessSignature.Create("sb://ns/ingestion", EventHubsEmulatorAccount.KeyName, EventHubsEmulatorAccount.Key, now.AddMinutes(5));

        Assert.Null(verifier.Check(token, "ingestion/messages", now));
        Assert.Null(verifier.Check(token, "ingestion/partitions/0/messages", now));
        Assert.Contains("does not cover", verifier.Check(token, "weather/messages", now), StringComparison.Ordinal);
        Assert.Contains("expired", verifier.Check(token, "ingestion/messages", now.AddMinutes(6)), StringComparison.Ordinal);
    }

    [Fact]
    public void Check_BadToken_NeverCached()
    {
        var verifier = new SasVerifier(Microsoft.Extensions.Options.Options.Create(new SasOptions()));
        var now = DateTimeOffset.UtcNow;
        var wrongKey = SharedAccessSignature.Create("sb://ns/", EventHubsEmulatorAccount.KeyName, "wrong", now.AddMinutes(5));
        var good = SharedAccessSignature.Create("sb://ns/", EventHubsEmulatorAccount.KeyName, EventHubsEmulatorAccount.Key, now.AddMinutes(5));

        // Every answer is the full check's, and nothing rejected is remembered: not a wrong signature, not a missing
        // or malformed header (the cache is observed directly, so a cache that stores a rejection but still answers
        // the same fails here too).
        Assert.Contains("signature does not match", verifier.Check(wrongKey, "h/messages", now), StringComparison.Ordinal);
        Assert.Contains("signature does not match", verifier.Check(wrongKey, "h/messages", now), StringComparison.Ordinal);
        Assert.NotNull(verifier.Check(null, "h/messages", now));
        Assert.NotNull(verifier.Check("SharedAccessSignature sr=x&se=1", "h/messages", now));
        Assert.Equal(0, verifier.CachedTokens);

        // The observation itself works: a good token is remembered once, however often it is used.
        Assert.Null(verifier.Check(good, "h/messages", now));
        Assert.Null(verifier.Check(good, "h/messages", now));
        Assert.Equal(1, verifier.CachedTokens);
    }
}
