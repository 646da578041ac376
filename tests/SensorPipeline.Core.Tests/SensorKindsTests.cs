namespace SensorPipeline.Core.Tests;

public class SensorKindsTests
{
    [Theory]
    [InlineData(SensorKind.Weather, "weather", PayloadCase.Weather)]
    [InlineData(SensorKind.Seismic, "seismic", PayloadCase.Seismic)]
    public void Name_KnownKind_HasItsNameAndPayload(SensorKind kind, string name, PayloadCase payload)
    {
        Assert.True(kind.IsKnown());
        Assert.Equal(name, kind.Name());
        Assert.Equal(name, kind.EncodedName().Value);
        Assert.Equal(payload, kind.ExpectedPayload());
    }

    [Theory]
    [InlineData(SensorKind.Unspecified)]
    [InlineData((SensorKind)7)]
    public void Name_UnknownKind_ThrowsAndHasNoPayload(SensorKind kind)
    {
        Assert.False(kind.IsKnown());
        Assert.Throws<ArgumentOutOfRangeException>(() => kind.Name());
        Assert.Equal(PayloadCase.None, kind.ExpectedPayload());
    }
}
