namespace SensorPipeline.CosmosEmulator.Documents;

/// <summary>A request the store refuses, with the status code and the service's error <c>code</c> to answer with.</summary>
public sealed class StoreException : Exception
{
    public StoreException(int status, string code, string message, int subStatus = 0)
        : base(message)
    {
        Status = status;
        Code = code;
        SubStatus = subStatus;
    }

    public StoreException()
        : this(500, "InternalServerError", "The store failed.")
    {
    }

    public StoreException(string message)
        : this(400, "BadRequest", message)
    {
    }

    public StoreException(string message, Exception innerException)
        : base(message, innerException)
    {
        (Status, Code) = (500, "InternalServerError");
    }

    public int Status { get; }

    public string Code { get; }

    public int SubStatus { get; }

    /// <summary>What the refusal cost, when the store had to read the document to decide (412, 409); else 0.</summary>
    public double RequestCharge { get; init; }

    public static StoreException NotFound(string what) => new(404, "NotFound", $"Entity with the specified id does not exist in the system. {what}");

    public static StoreException Conflict(string what, double requestCharge = 0) =>
        new(409, "Conflict", $"Entity with the specified id already exists in the system. {what}") { RequestCharge = requestCharge };

    public static StoreException PreconditionFailed(string what, double requestCharge = 0) =>
        new(412, "PreconditionFailed", $"Operation cannot be performed because one of the specified precondition is not met. {what}") { RequestCharge = requestCharge };
}
