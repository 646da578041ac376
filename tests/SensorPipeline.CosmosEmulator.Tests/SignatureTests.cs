using System.Globalization;
using System.Net.Http.Json;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using Microsoft.Azure.Cosmos;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>Master-key signatures as the service checks them — the date inside its window, the signed link the whole
/// address of the resource — and the fault endpoint's guard against a page in the developer's browser. Raw HTTP,
/// signed here, against the real emulator process.</summary>
public sealed class SignatureTests(EmulatorFixture fixture) : IClassFixture<EmulatorFixture>
{
    [Theory]
    [InlineData(-20 * 365 * 24 * 60, HttpStatusCode.Forbidden)] // 2000-ish: a signature must not live for ever
    [InlineData(-20, HttpStatusCode.Forbidden)]
    [InlineData(-10, HttpStatusCode.OK)]
    [InlineData(10, HttpStatusCode.Forbidden)]
    public async Task Read_SignedAtADate_AnsweredOnlyWithinTheWindow(int minutesFromNow, HttpStatusCode expected)
    {
        using var client = RawClient();
        var date = DateTimeOffset.UtcNow.AddMinutes(minutesFromNow);
        using var request = Signed(HttpMethod.Get, $"dbs/{fixture.Database.Id}", "dbs", $"dbs/{fixture.Database.Id}", date);
        using var response = await client.SendAsync(request);
        Assert.Equal(expected, response.StatusCode);
        if (expected == HttpStatusCode.Forbidden)
        {
            Assert.Contains("not valid at the current time", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task Write_SignatureOverTheContainerNameAlone_RefusedForAnotherDatabase()
    {
        Database other = await fixture.Client.CreateDatabaseIfNotExistsAsync("other-" + Guid.NewGuid().ToString("N"));
        await other.CreateContainerAsync("devices", "/deviceId");
        using var client = RawClient();
        var address = $"dbs/{other.Id}/colls/devices";

        using (var nameOnly = Signed(HttpMethod.Post, address + "/docs", "docs", "devices", DateTimeOffset.UtcNow, Upsert("d1")))
        using (var refused = await client.SendAsync(nameOnly))
        {
            Assert.Equal(HttpStatusCode.Unauthorized, refused.StatusCode);
        }

        using var whole = Signed(HttpMethod.Post, address + "/docs", "docs", address, DateTimeOffset.UtcNow, Upsert("d1"));
        using var accepted = await client.SendAsync(whole);
        Assert.Equal(HttpStatusCode.Created, accepted.StatusCode);
    }

    [Theory]
    [InlineData("Host", "rebound.example")]
    [InlineData("Origin", "https://hostile.example")]
    public async Task Faults_RequestFromAnotherSite_Forbidden(string header, string value)
    {
        using var client = RawClient();
        client.DefaultRequestHeaders.Add(CosmosEmulatorAccount.AdminHeader, "1");
        using var request = new HttpRequestMessage(HttpMethod.Post, "_emulator/faults")
        {
            Content = JsonContent.Create(new { status = 503, seconds = 60, documentContains = "no document contains this" }),
        };
        request.Headers.TryAddWithoutValidation(header, value);
        using var response = await client.SendAsync(request);
        try
        {
            Assert.Equal(HttpStatusCode.Forbidden, response.StatusCode);
        }
        finally
        {
            using var cleared = await client.DeleteAsync("_emulator/faults");
        }
    }

    // Not CosmosClients.LoopbackEmulatorHandler: these requests forge the Host header (a rebinding page's host name), which the
    // emulator's certificate does not name, and the point is the emulator's answer, not the TLS check in front of it. So the
    // name is not checked, but the certificate must be the emulator's own (its trust/emulator.pem), on loopback.
    private HttpClient RawClient()
    {
        byte[] emulator;
        using (var trusted = X509CertificateLoader.LoadCertificateFromFile(Path.Combine(fixture.Emulator.TrustDirectory, "emulator.pem")))
        {
            emulator = trusted.RawData;
        }

        return new(new HttpClientHandler
        {
            ServerCertificateCustomValidationCallback = (request, certificate, _, _) =>
                request.RequestUri is { IsLoopback: true } && certificate is not null && certificate.RawDataMemory.Span.SequenceEqual(emulator),
        })
        {
            BaseAddress = fixture.Emulator.Endpoint,
        };
    }

    private static StringContent Upsert(string id)
    {
        var content = new StringContent($$"""{"id":"{{id}}","deviceId":"{{id}}"}""", Encoding.UTF8, "application/json");
        content.Headers.ContentType!.CharSet = null;
        return content;
    }

    /// <summary>A request signed as the SDKs sign it: HMAC-SHA256 with the account key over
    /// <c>verb\nresourceType\nresourceLink\nx-ms-date\n\n</c>.</summary>
    private static HttpRequestMessage Signed(HttpMethod method, string path, string resourceType, string resourceLink, DateTimeOffset date, HttpContent? body = null)
    {
        var xDate = date.ToString("r", CultureInfo.InvariantCulture);
        var payload = $"{method.Method.ToLowerInvariant()}\n{resourceType}\n{resourceLink}\n{xDate.ToLowerInvariant()}\n\n";
        var signature = Convert.ToBase64String(HMACSHA256.HashData(Convert.FromBase64String(SensorPipeline.Clients.CosmosEmulatorAccount.Key), Encoding.UTF8.GetBytes(payload)));
        var request = new HttpRequestMessage(method, path) { Content = body };
        request.Headers.TryAddWithoutValidation("authorization", Uri.EscapeDataString($"type=master&ver=1.0&sig={signature}"));
        request.Headers.Add("x-ms-date", xDate);
        request.Headers.Add("x-ms-version", "2018-12-31");
        if (body is not null)
        {
            request.Headers.Add("x-ms-documentdb-partitionkey", """["d1"]""");
            request.Headers.Add("x-ms-documentdb-is-upsert", "true");
        }

        return request;
    }
}
