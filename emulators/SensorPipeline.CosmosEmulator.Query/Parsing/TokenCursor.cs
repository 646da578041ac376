namespace SensorPipeline.CosmosEmulator.Query.Parsing;

/// <summary>One query's tokens and the parsers' shared place in them: looking ahead, accepting and expecting tokens, and
/// errors pointing at the current token.</summary>
internal sealed class TokenCursor(string text)
{
    private readonly List<Token> _tokens = Lexer.Tokenize(text);

    /// <summary>The query text the tokens were read from (the clauses keep slices of it).</summary>
    public string Text { get; } = text;

    /// <summary>The current token's index; the clause parser moves it back after reading ahead to FROM.</summary>
    public int Index { get; set; }

    public Token Current => _tokens[Index];

    /// <summary>The token <paramref name="offset"/> places from the current one (a negative offset looks back).</summary>
    public Token Peek(int offset) => _tokens[Index + offset];

    public void Advance() => Index++;

    public bool Accept(string keyword)
    {
        if (Current.IsKeyword(keyword))
        {
            Index++;
            return true;
        }

        return false;
    }

    public bool AcceptSymbol(string symbol)
    {
        if (Current.IsSymbol(symbol))
        {
            Index++;
            return true;
        }

        return false;
    }

    public void Expect(string keyword, string hint)
    {
        if (!Accept(keyword))
        {
            throw Error($"Syntax error: expected {keyword} but found {Current.Describe()}; {hint}");
        }
    }

    public void ExpectSymbol(string symbol, string context)
    {
        if (!AcceptSymbol(symbol))
        {
            throw Error($"Syntax error: expected '{symbol}' {context} but found {Current.Describe()}");
        }
    }

    public string Name(string what)
    {
        var token = Current;
        if (token.Kind != TokenKind.Identifier)
        {
            throw Error($"Syntax error: expected {what} but found {token.Describe()}");
        }

        Index++;
        return token.Text;
    }

    public SqlQueryException Error(string message) => SqlQueryException.At(Text, Current.Position, message);
}
