using System.Globalization;
using System.Security.Cryptography;
using System.Text;

namespace SensorPipeline.LoadGen.Sending;

/// <summary>Event Hubs shared access signatures:
/// <c>SharedAccessSignature sr={enc(uri)}&amp;sig={enc(base64(HMAC-SHA256(key, enc(uri) + "\n" + expiry)))}&amp;se={expiry}&amp;skn={keyName}</c>.</summary>
internal static class SharedAccessSignature
{
    public static string Create(string resourceUri, string keyName, string key, DateTimeOffset expiry)
    {
        ArgumentNullException.ThrowIfNull(resourceUri);
        ArgumentNullException.ThrowIfNull(keyName);
        ArgumentNullException.ThrowIfNull(key);
        var encodedUri = Uri.EscapeDataString(resourceUri);
        var se = expiry.ToUnixTimeSeconds().ToString(CultureInfo.InvariantCulture);
        var signature = Convert.ToBase64String(HMACSHA256.HashData(Encoding.UTF8.GetBytes(key), Encoding.UTF8.GetBytes(encodedUri + "\n" + se)));
        return $"SharedAccessSignature sr={encodedUri}&sig={Uri.EscapeDataString(signature)}&se={se}&skn={Uri.EscapeDataString(keyName)}";
    }
}
