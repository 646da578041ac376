using SensorPipeline.Functions.DeviceStates;
using SensorPipeline.Functions.Endpoints;
using SensorPipeline.Functions.Extensions;

// The custom handler: the Functions host (or devhost) starts this process with FUNCTIONS_CUSTOMHANDLER_PORT and
// POSTs one request per invocation to /{FunctionName}.
var builder = WebApplication.CreateSlimBuilder(args);
builder.AddSensorPipelineFunctions();
var app = builder.Build();
app.MapFunctionEndpoints();
app.MapDeviceStateStatus();
app.AnnounceAddress();
app.Run();
