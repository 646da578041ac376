using System.Globalization;
using System.Net;
using System.Text.Json;
using Microsoft.Azure.Cosmos;

namespace SensorPipeline.Redrive;

/// <summary>What happened to one selected dead letter.</summary>
public enum RedriveAction
{
    Sent,
    WouldSend,
    Skipped,
    Failed,
}

/// <summary>One line of the report.</summary>
public sealed record RedriveLine(string Id, string Reason, DateTimeOffset? DeadLetteredAt, RedriveAction Action, string Detail);

/// <summary>
/// Selects dead letters (by id, reason and dead-lettered time), re-sends each one's original bytes to the hub
/// <see cref="DeadLetterRoute"/> picks, then marks the document (<c>redrivenAt</c>, <c>redriveCount</c>, <c>redrivenTo</c>,
/// a Patch conditioned on the ETag read) — it never deletes one. A dead letter already marked is skipped unless
/// <see cref="RedriveSelection.Again"/>. Sends come first: a crash between the send and the mark re-sends it next time,
/// which the pipeline absorbs (reading documents have deterministic ids; newer-wins device state).
/// </summary>
public sealed class DeadLetterRedriver(Container deadLetters, Func<RedriveHub, RedriveSend> senderFor, RedriveSelection selection, TimeProvider time)
{
    public async Task<IReadOnlyList<RedriveLine>> RunAsync(CancellationToken cancellationToken)
    {
        var selected = await SelectAsync(cancellationToken);
        var lines = new List<RedriveLine>(selected.Count);
        foreach (var letter in selected.OrderBy(l => l.DeadLetteredAt).ThenBy(l => l.Id, StringComparer.Ordinal))
        {
            lines.Add(await RedriveAsync(letter, cancellationToken));
        }

        return lines;
    }

    private async Task<RedriveLine> RedriveAsync(StoredDeadLetter letter, CancellationToken cancellationToken)
    {
        RedriveLine Line(RedriveAction action, string detail) => new(letter.Id, letter.Reason, letter.DeadLetteredAt, action, detail);
        if (letter.RedriveCount > 0 && !selection.Again)
        {
            return Line(RedriveAction.Skipped, $"already re-driven {letter.RedriveCount} time(s), last at {letter.RedrivenAt:O} (a re-drive with again set sends it once more: --again)");
        }

        var plan = DeadLetterRoute.Plan(letter.Stage, letter.ReadingIndex, letter.Reduced, letter.Payload);
        if (plan.Hub is not { } hub)
        {
            return Line(RedriveAction.Skipped, plan.Skip!);
        }

        var hubName = selection.HubName(hub);
        var what = string.Create(CultureInfo.InvariantCulture, $"{plan.Body.Length} bytes to {hubName}");
        if (selection.DryRun)
        {
            return Line(RedriveAction.WouldSend, what);
        }

        if (await senderFor(hub)(plan.Body, cancellationToken) is { } failure)
        {
            return Line(RedriveAction.Failed, $"send to {hubName} failed {failure}");
        }

        var marked = await MarkAsync(letter, hubName, cancellationToken);
        return marked is null ? Line(RedriveAction.Sent, what) : Line(RedriveAction.Failed, $"sent {what}, but not marked: {marked}");
    }

    /// <summary>Returns null when marked, else why not.</summary>
    private async Task<string?> MarkAsync(StoredDeadLetter letter, string hubName, CancellationToken cancellationToken)
    {
        var now = time.GetUtcNow().UtcDateTime.ToString("yyyy-MM-dd'T'HH:mm:ss.fffffff'Z'", CultureInfo.InvariantCulture);
        PatchOperation[] operations =
        [
            PatchOperation.Set("/redrivenAt", now),
            PatchOperation.Set("/redriveCount", letter.RedriveCount + 1),
            PatchOperation.Set("/redrivenTo", hubName),
        ];
        using var response = await deadLetters.PatchItemStreamAsync(letter.Id, new PartitionKey(letter.Id), operations,
            new PatchItemRequestOptions { IfMatchEtag = letter.ETag }, cancellationToken);
        return response.IsSuccessStatusCode ? null : $"{(int)response.StatusCode} {response.ErrorMessage}";
    }

    private async Task<List<StoredDeadLetter>> SelectAsync(CancellationToken cancellationToken)
    {
        var found = new List<StoredDeadLetter>();
        if (selection.Ids.Count > 0)
        {
            foreach (var id in selection.Ids.Distinct(StringComparer.Ordinal))
            {
                using var response = await deadLetters.ReadItemStreamAsync(id, new PartitionKey(id), cancellationToken: cancellationToken);
                if (response.StatusCode == HttpStatusCode.NotFound)
                {
                    throw new RedriveException($"no dead letter with id '{id}' in {deadLetters.Id}");
                }

                Ensure(response, id);
                using var document = await JsonDocument.ParseAsync(response.Content, cancellationToken: cancellationToken);
                found.Add(StoredDeadLetter.Parse(document.RootElement));
            }
        }
        else
        {
            // The dead-lettered time is filtered here, not in the query: it is stored as text whose fraction varies in
            // length, so text order is not time order. The container stays small (only bad input lands there).
            var query = new QueryDefinition("SELECT * FROM c" + (selection.Reasons.Count == 0 ? "" :
                " WHERE " + string.Join(" OR ", selection.Reasons.Select((_, i) => $"c.reason = @r{i}"))));
            for (var i = 0; i < selection.Reasons.Count; i++)
            {
                query = query.WithParameter($"@r{i}", selection.Reasons[i]);
            }

            using var iterator = deadLetters.GetItemQueryStreamIterator(query);
            while (iterator.HasMoreResults)
            {
                using var page = await iterator.ReadNextAsync(cancellationToken);
                Ensure(page, "query");
                using var json = await JsonDocument.ParseAsync(page.Content, cancellationToken: cancellationToken);
                found.AddRange(json.RootElement.GetProperty("Documents").EnumerateArray().Select(StoredDeadLetter.Parse));
            }
        }

        return [.. found.Where(Matches)];
    }

    private bool Matches(StoredDeadLetter letter) =>
        (selection.Reasons.Count == 0 || selection.Reasons.Contains(letter.Reason, StringComparer.Ordinal))
        && (selection.Since is not { } since || letter.DeadLetteredAt >= since)
        && (selection.Until is not { } until || letter.DeadLetteredAt < until);

    private void Ensure(ResponseMessage response, string what)
    {
        if (!response.IsSuccessStatusCode)
        {
            throw new RedriveException($"{deadLetters.Id} {what}: {(int)response.StatusCode} {response.ErrorMessage}");
        }
    }
}

/// <summary>The dead letters could not be read: an error, not a failed re-drive.</summary>
public sealed class RedriveException(string message) : Exception(message);
