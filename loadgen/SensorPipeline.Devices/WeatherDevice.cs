using SensorPipeline.Protos;

namespace SensorPipeline.Devices;

/// <summary>A weather station whose values drift as a mean-reverting random walk around a climate that
/// depends on its latitude and altitude, with occasional rain showers.</summary>
public sealed class WeatherDevice : SimulatedDevice
{
    private readonly double _baseTemperatureC;
    private double _temperatureC;
    private double _humidityPct;
    private double _pressureHpa;
    private double _windSpeedMps;
    private double _windDirectionDeg;
    private double _rainMmph;

    public WeatherDevice(string id, SensorKind kind, Random random)
        : base(id, kind, random)
    {
        // Warmer near the equator; colder with height (6.5 °C per km) and lower pressure (~12 hPa per 100 m).
        _baseTemperatureC = 28 - 0.45 * Math.Abs(Latitude) - 0.0065 * AltitudeM;
        _temperatureC = _baseTemperatureC + Gaussian() * 3;
        _humidityPct = 40 + Random.NextDouble() * 50;
        _pressureHpa = 1013.25 - AltitudeM * 0.12;
        _windSpeedMps = Random.NextDouble() * 8;
        _windDirectionDeg = Random.NextDouble() * 360;
    }

    protected override void FillPayload(Reading reading)
    {
        _temperatureC += 0.02 * (_baseTemperatureC - _temperatureC) + Gaussian() * 0.05;
        _humidityPct = Math.Clamp(_humidityPct + Gaussian() * 0.3 + (_rainMmph > 0 ? 0.2 : 0), 5, 100);
        _pressureHpa += Gaussian() * 0.05;
        _windSpeedMps = Math.Clamp(_windSpeedMps + Gaussian() * 0.2, 0, 40);
        _windDirectionDeg = ((_windDirectionDeg + Gaussian() * 3) % 360 + 360) % 360;
        // Showers start rarely and stop a little less rarely, so most readings are dry.
        _rainMmph = _rainMmph > 0
            ? (Random.NextDouble() < 0.02 ? 0 : Math.Max(0.1, _rainMmph + Gaussian() * 0.3))
            : (Random.NextDouble() < 0.005 ? 0.5 + Random.NextDouble() * 4 : 0);

        reading.Weather = new WeatherPayload
        {
            TemperatureC = Math.Round(_temperatureC, 2),
            RelativeHumidityPct = Math.Round(_humidityPct, 1),
            PressureHpa = Math.Round(_pressureHpa, 2),
            WindSpeedMps = Math.Round(_windSpeedMps, 2),
            WindDirectionDeg = Math.Round(_windDirectionDeg, 1),
            RainMmph = Math.Round(_rainMmph, 2),
        };
    }
}
