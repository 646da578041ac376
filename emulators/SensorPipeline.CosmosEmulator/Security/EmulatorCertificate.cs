using System.Net;
using System.Security.Cryptography.X509Certificates;
using System.Security.Cryptography;
using SensorPipeline.Clients;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.CosmosEmulator.Security;

/// <summary>The emulator's TLS certificate: self-signed for localhost/127.0.0.1, generated on first start and kept in
/// the data directory so clients that pin it keep working across restarts. In-process clients accept it the way the
/// SDKs' emulator settings do (a certificate callback for a loopback endpoint); a process that must not carry such a
/// callback (the Function App) trusts it from the environment: <c>SSL_CERT_DIR</c> naming
/// <see cref="CosmosEmulatorAccount.TrustDirectoryName"/>, where the public certificate is written as PEM.</summary>
public static class EmulatorCertificate
{
    public const string FileName = "emulator-certificate.pfx";

    /// <summary>Loads the certificate from <paramref name="dataDirectory"/>, or creates and saves a new one when there is
    /// none or the stored one expires within a day.</summary>
    public static X509Certificate2 LoadOrCreate(string dataDirectory, TimeProvider time)
    {
        ArgumentNullException.ThrowIfNull(time);
        var path = Path.Combine(dataDirectory, FileName);
        var now = time.GetUtcNow();
        if (File.Exists(path))
        {
            var stored = X509CertificateLoader.LoadPkcs12FromFile(path, password: null, X509KeyStorageFlags.Exportable);
            if (stored.NotAfter.ToUniversalTime() > now.UtcDateTime.AddDays(1))
            {
                WriteTrust(dataDirectory, stored);
                return stored;
            }

            stored.Dispose();
        }

        var created = Create(now);
        var temporary = path + ".tmp";
        File.WriteAllBytes(temporary, created.Export(X509ContentType.Pkcs12));
        File.Move(temporary, path, overwrite: true);
        WriteTrust(dataDirectory, created);
        return created;
    }

    /// <summary>The public certificate alone, as PEM, in a folder of its own (OpenSSL-style trust directories read
    /// every file in them).</summary>
    private static void WriteTrust(string dataDirectory, X509Certificate2 certificate)
    {
        var directory = Directory.CreateDirectory(Path.Combine(dataDirectory, CosmosEmulatorAccount.TrustDirectoryName));
        var path = Path.Combine(directory.FullName, "emulator.pem");
        File.WriteAllText(path + ".tmp", certificate.ExportCertificatePem());
        File.Move(path + ".tmp", path, overwrite: true);
    }

    /// <summary>A new self-signed ECDSA P-256 certificate for localhost and 127.0.0.1, valid for a year.</summary>
    public static X509Certificate2 Create(DateTimeOffset now)
    {
        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var request = new CertificateRequest("CN=localhost, O=SensorPipeline Cosmos DB emulator", key, HashAlgorithmName.SHA256);
        var names = new SubjectAlternativeNameBuilder();
        names.AddDnsName("localhost");
        names.AddIpAddress(IPAddress.Loopback);
        request.CertificateExtensions.Add(names.Build());
        request.CertificateExtensions.Add(new X509BasicConstraintsExtension(false, false, 0, true));
        request.CertificateExtensions.Add(new X509KeyUsageExtension(X509KeyUsageFlags.DigitalSignature, true));
        request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([new Oid("1.3.6.1.5.5.7.3.1")], false));
        using var certificate = request.CreateSelfSigned(now.AddMinutes(-5), now.AddYears(1));

        // Round-trip through PKCS#12 so the private key is usable by SslStream on every platform.
        return X509CertificateLoader.LoadPkcs12(certificate.Export(X509ContentType.Pkcs12), password: null, X509KeyStorageFlags.Exportable);
    }
}
