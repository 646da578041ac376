namespace SensorPipeline.CosmosEmulator.Query.Evaluation;

internal static class ParameterBinder
{
    /// <summary>The value of each parameter slot. Names match exactly, '@' included (the SDKs send them as written).</summary>
    public static QValue[] Bind(IReadOnlyList<string> names, IReadOnlyList<KeyValuePair<string, JsonElement>>? supplied)
    {
        var values = new QValue[names.Count];
        for (var slot = 0; slot < names.Count; slot++)
        {
            var found = false;
            if (supplied is not null)
            {
                foreach (var (name, value) in supplied)
                {
                    if (string.Equals(name, names[slot], StringComparison.Ordinal))
                    {
                        // A string parameter is materialised once, so comparing it with a document's strings
                        // happens in place on the document side, without a string per row.
                        values[slot] = value.ValueKind == JsonValueKind.String
                            ? QValue.FromString(value.GetString()!)
                            : QValue.FromElement(value);
                        found = true;
                        break;
                    }
                }
            }

            if (!found)
            {
                throw new SqlQueryException($"The query uses the parameter {names[slot]} but the request gives it no value.");
            }
        }

        return values;
    }
}
