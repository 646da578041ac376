using System.Reflection;
using Microsoft.Azure.Cosmos;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace SensorPipeline.Functions.Storage;

/// <summary>
/// The indexing policy of each container as infra deploys it: <c>infra/app/indexing-policies.json</c>, which
/// <c>infra/app/cosmos.bicep</c> loads and this assembly embeds, so the containers the handler creates locally index
/// exactly what Azure's do (and the local request charges are Azure's). Keys: <c>readings</c>, <c>devices</c>,
/// <c>archive</c>, <c>deadletters</c> — the containers' roles, whatever their configured names.
/// </summary>
internal static class IndexingPolicies
{
    private const string Resource = "indexing-policies.json";

    private static readonly Lazy<JObject> Policies = new(Load);

    /// <summary>A fresh copy of the policy of the container with <paramref name="role"/>.</summary>
    public static IndexingPolicy For(string role) =>
        Policies.Value.TryGetValue(role, StringComparison.Ordinal, out var policy)
            ? policy.ToObject<IndexingPolicy>()!
            : throw new InvalidOperationException($"{Resource} has no policy for '{role}'.");

    private static JObject Load()
    {
        using var stream = Assembly.GetExecutingAssembly().GetManifestResourceStream(Resource)
            ?? throw new InvalidOperationException($"{Resource} is not embedded in {Assembly.GetExecutingAssembly().GetName().Name}.");
        using var reader = new JsonTextReader(new StreamReader(stream));
        return JObject.Load(reader);
    }
}
