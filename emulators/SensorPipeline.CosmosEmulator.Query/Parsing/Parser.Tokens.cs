namespace SensorPipeline.CosmosEmulator.Query.Parsing;

/// <summary>Token-level helpers of the parser: looking ahead, accepting and expecting tokens, and errors with positions.</summary>
internal sealed partial class Parser
{
    /// <summary>Moves to the FROM of this query: the first FROM keyword outside brackets that is not a property name.</summary>
    private void SkipToFrom()
    {
        var depth = 0;
        while (Current.Kind != TokenKind.End)
        {
            var token = Current;
            if (token.Kind == TokenKind.Symbol && token.Text is "(" or "[" or "{")
            {
                depth++;
            }
            else if (token.Kind == TokenKind.Symbol && token.Text is ")" or "]" or "}")
            {
                depth--;
            }
            else if (depth == 0 && token.IsKeyword("FROM") && !(_pos > 0 && _tokens[_pos - 1].IsSymbol(".")))
            {
                return;
            }

            _pos++;
        }
    }

    private string[] ParameterNames()
    {
        var names = new string[_parameters.Count];
        foreach (var (name, slot) in _parameters)
        {
            names[slot] = name;
        }

        return names;
    }

    private static bool IsClauseKeyword(Token token) => Array.Exists(ClauseKeywords, token.IsKeyword);

    private Token Current => _tokens[_pos];

    private bool Accept(string keyword)
    {
        if (Current.IsKeyword(keyword))
        {
            _pos++;
            return true;
        }

        return false;
    }

    private bool AcceptSymbol(string symbol)
    {
        if (Current.IsSymbol(symbol))
        {
            _pos++;
            return true;
        }

        return false;
    }

    private void Expect(string keyword, string hint)
    {
        if (!Accept(keyword))
        {
            throw Error($"Syntax error: expected {keyword} but found {Current.Describe()}; {hint}");
        }
    }

    private void ExpectSymbol(string symbol, string context)
    {
        if (!AcceptSymbol(symbol))
        {
            throw Error($"Syntax error: expected '{symbol}' {context} but found {Current.Describe()}");
        }
    }

    private void ExpectEnd()
    {
        if (Current.Kind == TokenKind.End)
        {
            return;
        }

        if (Current.IsKeyword("GROUP"))
        {
            throw Error("GROUP BY is not supported by this emulator");
        }

        throw Error($"Syntax error: unexpected {Current.Describe()}; supported: {Grammar}");
    }

    private string Name(string what)
    {
        var token = Current;
        if (token.Kind != TokenKind.Identifier)
        {
            throw Error($"Syntax error: expected {what} but found {token.Describe()}");
        }

        _pos++;
        return token.Text;
    }

    private SqlQueryException Error(string message) => SqlQueryException.At(_text, Current.Position, message);
}
