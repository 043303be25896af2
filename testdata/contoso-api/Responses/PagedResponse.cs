using ContosoApi.Requests;
using Microsoft.EntityFrameworkCore;

namespace ContosoApi.Responses;

/// <summary>One page of a list, with the totals a client needs to page through it.</summary>
public record PagedResponse<T>(IReadOnlyList<T> Items, int Page, int PageSize, int TotalCount)
{
    public int TotalPages => (int)Math.Ceiling(TotalCount / (double)PageSize);

    public static async Task<PagedResponse<T>> CreateAsync(IQueryable<T> query, PageRequest page, CancellationToken ct)
    {
        var total = await query.CountAsync(ct);
        var items = await query.Skip(page.Skip).Take(page.PageSize).ToListAsync(ct);
        return new PagedResponse<T>(items, page.Page, page.PageSize, total);
    }
}
