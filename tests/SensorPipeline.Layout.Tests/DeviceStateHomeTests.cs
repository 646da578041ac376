using System.Text.RegularExpressions;

namespace SensorPipeline.Layout.Tests;

/// <summary>
/// Device states live in one home: the coalescing's types, the pending-states mark, the guard, the choice of the newest
/// state and the recovery's rendering sit in one folder and namespace of the core (<c>DeviceStates/</c>) and one folder
/// of the handler (<c>DeviceStates/</c>). A type named for device states anywhere else in either project fails, and so
/// does a type of the home that went missing (a rename would otherwise leave the check with nothing to check).
/// </summary>
public sealed partial class DeviceStateHomeTests
{
    private static readonly string Root = RepoLayout.Current.Root;

    [Theory]
    [InlineData("core/SensorPipeline.Core", "SensorPipeline.Core.DeviceStates", "NewerWins,PendingStatesMark,DeviceStateWriter,StoredReadingState,DeviceLatest,StaleDeviceState")]
    [InlineData("functions/SensorPipeline.Functions", "SensorPipeline.Functions.DeviceStates", "DeviceStateGuard,DeviceStateFlusher,DeviceStateRecovery,DeviceStateWrites,PendingDeviceStates,PendingStatesMarks,DeviceStateEndpoints")]
    public void DeviceStateTypes_Project_AllInTheDeviceStatesFolderAndNamespace(string project, string home, string required)
    {
        var homeFolder = Path.Combine(Root, project, "DeviceStates") + Path.DirectorySeparatorChar;
        var found = new Dictionary<string, string>(StringComparer.Ordinal);
        var misplaced = new List<string>();
        foreach (var file in RepoProjects.Files(Path.Combine(Root, project), "*.cs"))
        {
            var text = File.ReadAllText(file);
            var inHome = file.StartsWith(homeFolder, StringComparison.Ordinal) && text.Contains($"namespace {home};", StringComparison.Ordinal);
            foreach (Match m in Declaration().Matches(text))
            {
                var name = m.Groups["name"].Value;
                found[name] = file;
                if (IsDeviceStateName(name) && !inHome)
                {
                    misplaced.Add($"{name} in {Path.GetRelativePath(Root, file)}");
                }
            }
        }

        Assert.True(misplaced.Count == 0, $"device-state types outside {project}/DeviceStates (namespace {home}): {string.Join(", ", misplaced)}");
        foreach (var name in required.Split(','))
        {
            Assert.True(found.TryGetValue(name, out var file) && file.StartsWith(homeFolder, StringComparison.Ordinal), $"{name} is not in {project}/DeviceStates");
        }
    }

    [Theory]
    [InlineData("DeviceStateGuard", true)]
    [InlineData("PendingStatesMark", true)]
    [InlineData("NewerWins", true)]
    [InlineData("StalenessPolicy", false)]
    [InlineData("EnvelopeProcessor", false)]
    public void IsDeviceStateName_TypeName_MatchesTheHomesVocabulary(string name, bool expected) =>
        Assert.Equal(expected, IsDeviceStateName(name));

    private static bool IsDeviceStateName(string name) => DeviceStateName().IsMatch(name);

    [GeneratedRegex(@"DeviceState|PendingStates?\b|PendingStates|NewerWins|DeviceLatest|StoredReadingState|StoredState\b")]
    private static partial Regex DeviceStateName();

    [GeneratedRegex(@"^\s*(?:public|internal|private|protected|file)?\s*(?:static\s+|sealed\s+|abstract\s+|readonly\s+|partial\s+)*(?:class|record\s+struct|record|struct|enum|interface)\s+(?<name>\w+)", RegexOptions.Multiline)]
    private static partial Regex Declaration();
}
