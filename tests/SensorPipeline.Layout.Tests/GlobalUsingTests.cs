namespace SensorPipeline.Layout.Tests;

public sealed class GlobalUsingTests
{
    [Fact]
    public void In_EveryProject_NoFileImportsAGlobalUsingAgain()
    {
        var repeated = RepeatedUsings.In(RepoLayout.Current.Root);

        Assert.True(repeated.Count == 0, "usings that repeat their project's global usings (delete the line):\n" + string.Join("\n", repeated));
    }

    [Theory]
    [InlineData("Microsoft.NET.Sdk", "using Sample.Infrastructure;")]
    [InlineData("Microsoft.NET.Sdk", "using System.Linq;")]
    [InlineData("Microsoft.NET.Sdk.Web", "using Microsoft.Extensions.Logging;")]
    [InlineData("Microsoft.NET.Sdk", "using Sample.Declared;")]
    public void In_FileImportingAGlobalUsing_IsNamed(string sdk, string repeated)
    {
        using var root = new TempDirectory("sensorpipeline-usings-");
        WriteProject(root.Path, "tests/Sample.Tests", sdk, """<Using Include="Xunit" /><Using Include="Sample.Infrastructure" />""");
        File.WriteAllText(Path.Combine(root.Path, "tests/Sample.Tests/Usings.cs"), "global using Sample.Declared;\n");
        File.WriteAllText(Path.Combine(root.Path, "tests/Sample.Tests/ATests.cs"), $"using System.Net;\n{repeated}\n\nnamespace Sample.Tests;\n");

        var found = Assert.Single(RepeatedUsings.In(root.Path));
        Assert.StartsWith($"tests/Sample.Tests/ATests.cs:2: {repeated}", found, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("Microsoft.NET.Sdk", "using Microsoft.Extensions.Logging;", "")]
    [InlineData("Microsoft.NET.Sdk", "using System.Linq;", """<Using Remove="System.Linq" />""")]
    public void In_UsingTheProjectDoesNotImportGlobally_IsNotNamed(string sdk, string imported, string items)
    {
        using var root = new TempDirectory("sensorpipeline-usings-");
        WriteProject(root.Path, "tests/Sample.Tests", sdk, items);
        File.WriteAllText(Path.Combine(root.Path, "tests/Sample.Tests/ATests.cs"), $"{imported}\n\nnamespace Sample.Tests;\n");

        Assert.Empty(RepeatedUsings.In(root.Path));
    }

    [Fact]
    public void In_FileAnotherProjectCompilesToo_KeepsItsUsings()
    {
        using var root = new TempDirectory("sensorpipeline-usings-");
        WriteProject(root.Path, "tests/Sample.Tests", "Microsoft.NET.Sdk", """<Using Include="Sample.Protos" />""");
        WriteProject(root.Path, "tests/Other.Tests", "Microsoft.NET.Sdk", """<Compile Include="../Sample.Tests/Builders.cs" Link="Builders.cs" />""");
        File.WriteAllText(Path.Combine(root.Path, "tests/Sample.Tests/Builders.cs"), "using Sample.Protos;\n\nnamespace Sample.Testing;\n");

        Assert.Empty(RepeatedUsings.In(root.Path));
    }

    private static void WriteProject(string root, string folder, string sdk, string items)
    {
        Directory.CreateDirectory(Path.Combine(root, folder));
        File.WriteAllText(Path.Combine(root, "Directory.Build.props"), "<Project><PropertyGroup><ImplicitUsings>enable</ImplicitUsings></PropertyGroup></Project>");
        File.WriteAllText(Path.Combine(root, folder, folder.Split('/')[^1] + ".csproj"),
            $"""<Project Sdk="{sdk}"><ItemGroup>{items}</ItemGroup></Project>""");
    }
}
