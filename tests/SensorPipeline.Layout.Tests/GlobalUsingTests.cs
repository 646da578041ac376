namespace SensorPipeline.Layout.Tests;

public sealed class GlobalUsingTests
{
    [Fact]
    public void Repeated_EveryProject_NoFileImportsAGlobalUsingAgain()
    {
        var repeated = GlobalUsings.Repeated(RepoLayout.Current.Root);

        Assert.True(repeated.Count == 0, "usings that repeat their project's global usings (delete the line):\n" + string.Join("\n", repeated));
    }

    [Fact]
    public void Repeated_FileImportingItsProjectsGlobalUsing_IsNamed()
    {
        using var root = new TempDirectory("sensorpipeline-usings-");
        WriteProject(root.Path, "tests/Sample.Tests", """<Using Include="Xunit" /><Using Include="Sample.Infrastructure" />""");
        File.WriteAllText(Path.Combine(root.Path, "tests/Sample.Tests/ATests.cs"), "using System.Net;\nusing Sample.Infrastructure;\n\nnamespace Sample.Tests;\n");
        File.WriteAllText(Path.Combine(root.Path, "tests/Sample.Tests/BTests.cs"), "using System.Net;\n\nnamespace Sample.Tests;\n");

        var repeated = Assert.Single(GlobalUsings.Repeated(root.Path));
        Assert.StartsWith("tests/Sample.Tests/ATests.cs:2: using Sample.Infrastructure;", repeated, StringComparison.Ordinal);
    }

    [Fact]
    public void Repeated_FileAnotherProjectCompilesToo_KeepsItsUsings()
    {
        using var root = new TempDirectory("sensorpipeline-usings-");
        WriteProject(root.Path, "tests/Sample.Tests", """<Using Include="Sample.Protos" />""");
        WriteProject(root.Path, "tests/Other.Tests", """<Compile Include="../Sample.Tests/Builders.cs" Link="Builders.cs" />""");
        File.WriteAllText(Path.Combine(root.Path, "tests/Sample.Tests/Builders.cs"), "using Sample.Protos;\n\nnamespace Sample.Testing;\n");

        Assert.Empty(GlobalUsings.Repeated(root.Path));
    }

    private static void WriteProject(string root, string folder, string items)
    {
        Directory.CreateDirectory(Path.Combine(root, folder));
        File.WriteAllText(Path.Combine(root, folder, folder.Split('/')[^1] + ".csproj"),
            $"""<Project Sdk="Microsoft.NET.Sdk"><ItemGroup>{items}</ItemGroup></Project>""");
    }
}
