using System.Buffers;
using System.Net;
using System.Net.Http.Headers;

namespace SensorPipeline.FunctionsHost.Invocation;

/// <summary>The request body, already written by <see cref="InvocationRequestWriter"/>. It reports no length, so
/// HttpClient sends it chunked without Content-Length — as the host's ObjectContent with JsonMediaTypeFormatter does.</summary>
internal sealed class InvocationContent : HttpContent
{
    private static readonly MediaTypeHeaderValue JsonUtf8 = new("application/json") { CharSet = "utf-8" };
    private readonly ArrayBufferWriter<byte> _body;

    public InvocationContent(ArrayBufferWriter<byte> body)
    {
        _body = body;
        Headers.ContentType = JsonUtf8;
    }

    protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context) =>
        SerializeToStreamAsync(stream, context, CancellationToken.None);

    protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken) =>
        await stream.WriteAsync(_body.WrittenMemory, cancellationToken);

    protected override bool TryComputeLength(out long length)
    {
        length = 0;
        return false;
    }
}
