using System.Globalization;
using System.Text;

namespace SensorPipeline.CosmosEmulator.Query.Parsing;

internal enum TokenKind
{
    End,
    Identifier,
    Parameter,
    Number,
    String,
    Symbol,
}

/// <summary>One token; <see cref="Text"/> is the identifier, the parameter name with its '@', the symbol, or the
/// decoded string literal.</summary>
internal readonly record struct Token(TokenKind Kind, string Text, double Number, int Position)
{
    public bool IsKeyword(string keyword) =>
        Kind == TokenKind.Identifier && string.Equals(Text, keyword, StringComparison.OrdinalIgnoreCase);

    public bool IsSymbol(string symbol) => Kind == TokenKind.Symbol && Text == symbol;

    public string Describe() => Kind switch
    {
        TokenKind.End => "the end of the query",
        TokenKind.String => $"string '{Text}'",
        _ => $"'{Text}'",
    };
}

/// <summary>Splits query text into tokens. Keywords are identifiers here; the parser matches them case-insensitively.</summary>
internal static class Lexer
{
    /// <summary>The ORDER BY continuation placeholder of the SDKs' rewritten queries. The SDKs replace it before they
    /// send a query; one that arrives unreplaced means "no continuation filter", i.e. <c>true</c>.</summary>
    private const string OrderByFilterPlaceholder = "{documentdb-formattableorderbyquery-filter}";

    private static readonly string[] Symbols =
    [
        "<=", ">=", "!=", "<>", "||", "??", "(", ")", "[", "]", "{", "}", ",", ".", ":", "=", "<", ">", "+", "-", "*",
        "/", "%", "?", "!", "&", "|", "^", "~",
    ];

    public static List<Token> Tokenize(string text)
    {
        var tokens = new List<Token>();
        var i = 0;
        while (true)
        {
            i = SkipTrivia(text, i);
            if (i >= text.Length)
            {
                tokens.Add(new Token(TokenKind.End, string.Empty, 0, i));
                return tokens;
            }

            var c = text[i];
            if (char.IsAsciiLetter(c) || c == '_')
            {
                var start = i;
                i = NameEnd(text, i);
                tokens.Add(new Token(TokenKind.Identifier, text[start..i], 0, start));
            }
            else if (c == '@')
            {
                tokens.Add(ReadParameter(text, ref i));
            }
            else if (char.IsAsciiDigit(c) || (c == '.' && i + 1 < text.Length && char.IsAsciiDigit(text[i + 1])))
            {
                tokens.Add(ReadNumber(text, ref i));
            }
            else if (c is '\'' or '"')
            {
                tokens.Add(ReadString(text, ref i));
            }
            else if (c == '{' && string.CompareOrdinal(text, i, OrderByFilterPlaceholder, 0, OrderByFilterPlaceholder.Length) == 0)
            {
                tokens.Add(new Token(TokenKind.Identifier, "true", 0, i));
                i += OrderByFilterPlaceholder.Length;
            }
            else
            {
                var symbol = Array.Find(Symbols, s => string.CompareOrdinal(text, i, s, 0, s.Length) == 0)
                    ?? throw SqlQueryException.At(text, i, $"Syntax error: unexpected character '{c}'");
                tokens.Add(new Token(TokenKind.Symbol, symbol, 0, i));
                i += symbol.Length;
            }
        }
    }

    private static int SkipTrivia(string text, int i)
    {
        while (i < text.Length)
        {
            if (char.IsWhiteSpace(text[i]))
            {
                i++;
            }
            else if (text[i] == '-' && i + 1 < text.Length && text[i + 1] == '-')
            {
                while (i < text.Length && text[i] != '\n')
                {
                    i++;
                }
            }
            else
            {
                break;
            }
        }

        return i;
    }

    private static int NameEnd(string text, int i)
    {
        while (i < text.Length && (char.IsAsciiLetterOrDigit(text[i]) || text[i] == '_'))
        {
            i++;
        }

        return i;
    }

    private static Token ReadParameter(string text, ref int i)
    {
        var start = i;
        i = NameEnd(text, i + 1);
        if (i == start + 1)
        {
            throw SqlQueryException.At(text, start, "Syntax error: '@' must be followed by a parameter name");
        }

        return new Token(TokenKind.Parameter, text[start..i], 0, start);
    }

    private static Token ReadNumber(string text, ref int i)
    {
        if (text[i] == '0' && i + 1 < text.Length && (text[i + 1] is 'x' or 'X'))
        {
            return ReadHexNumber(text, ref i);
        }

        var start = i;
        i = DigitsEnd(text, i);
        if (i < text.Length && text[i] == '.')
        {
            i = DigitsEnd(text, i + 1);
        }

        i = ExponentEnd(text, i);
        var literal = text[start..i];
        return new Token(TokenKind.Number, literal, double.Parse(literal, NumberStyles.Float, CultureInfo.InvariantCulture), start);
    }

    private static Token ReadHexNumber(string text, ref int i)
    {
        var start = i;
        i += 2;
        var hexStart = i;
        while (i < text.Length && char.IsAsciiHexDigit(text[i]))
        {
            i++;
        }

        if (i == hexStart)
        {
            throw SqlQueryException.At(text, start, "Syntax error: '0x' must be followed by hexadecimal digits");
        }

        // More than 16 digits does not fit an Int64 (found by fuzzing: long.Parse threw OverflowException).
        if (!long.TryParse(text.AsSpan(hexStart, i - hexStart), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out var hex))
        {
            throw SqlQueryException.At(text, start, "Syntax error: the hexadecimal literal does not fit 64 bits");
        }

        return new Token(TokenKind.Number, text[start..i], hex, start);
    }

    private static int DigitsEnd(string text, int i)
    {
        while (i < text.Length && char.IsAsciiDigit(text[i]))
        {
            i++;
        }

        return i;
    }

    /// <summary>Where an exponent (e, optional sign, digits) starting at <paramref name="i"/> ends; an 'e' without
    /// digits is not part of the number, so it ends at <paramref name="i"/>.</summary>
    private static int ExponentEnd(string text, int i)
    {
        if (i >= text.Length || text[i] is not ('e' or 'E'))
        {
            return i;
        }

        var end = i + 1;
        if (end < text.Length && text[end] is '+' or '-')
        {
            end++;
        }

        return end < text.Length && char.IsAsciiDigit(text[end]) ? DigitsEnd(text, end) : i;
    }

    private static Token ReadString(string text, ref int i)
    {
        var start = i;
        var quote = text[i++];
        var builder = new StringBuilder();
        while (true)
        {
            if (i >= text.Length)
            {
                throw SqlQueryException.At(text, start, "Syntax error: unterminated string literal");
            }

            var c = text[i++];
            if (c == quote)
            {
                return new Token(TokenKind.String, builder.ToString(), 0, start);
            }

            if (c != '\\')
            {
                builder.Append(c);
                continue;
            }

            if (i >= text.Length)
            {
                throw SqlQueryException.At(text, start, "Syntax error: unterminated string literal");
            }

            var escape = text[i++];
            switch (escape)
            {
                case 'b': builder.Append('\b'); break;
                case 'f': builder.Append('\f'); break;
                case 'n': builder.Append('\n'); break;
                case 'r': builder.Append('\r'); break;
                case 't': builder.Append('\t'); break;
                case 'u':
                    if (i + 4 > text.Length || !int.TryParse(text.AsSpan(i, 4), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out var code))
                    {
                        throw SqlQueryException.At(text, i - 2, "Syntax error: '\\u' must be followed by four hexadecimal digits");
                    }

                    builder.Append((char)code);
                    i += 4;
                    break;
                default:
                    builder.Append(escape); // \' \" \\ \/ and any other escaped character stand for themselves
                    break;
            }
        }
    }
}
