namespace SensorPipeline.DevHost.Explorer;

/// <summary>The map's offline files, embedded at build time from the pinned npm packages (package.json): world-atlas's
/// land outline (Natural Earth 1:110m, TopoJSON) and topojson-client, which turns it into GeoJSON in the page. No tile
/// server, no CDN. A build without <c>node_modules</c> (no <c>npm ci</c>) has none: the map then says so.</summary>
public static class ExplorerAssets
{
    private static readonly Dictionary<string, string> ContentTypes = new(StringComparer.Ordinal)
    {
        ["land-110m.json"] = "application/json",
        ["topojson-client.min.js"] = "text/javascript; charset=utf-8",
    };

    public static IResult Get(string name)
    {
        if (!ContentTypes.TryGetValue(name, out var contentType))
        {
            return Results.NotFound();
        }

        return EmbeddedFile.TryRead(typeof(ExplorerAssets).Assembly, "explorer-assets/" + name) is { } bytes
            ? Results.Bytes(bytes, contentType)
            : Results.Problem(statusCode: StatusCodes.Status404NotFound, detail: $"{name} was not embedded: run 'npm ci' in the repository, then build devhost again.");
    }
}
