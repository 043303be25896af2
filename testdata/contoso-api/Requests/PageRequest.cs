namespace ContosoApi.Requests;

/// <summary>The paging query of a list endpoint: ?page=2&amp;pageSize=20. Pages count from 1.</summary>
public class PageRequest
{
    public const int DefaultPageSize = 20;

    public int Page { get; set; } = 1;

    public int PageSize { get; set; } = DefaultPageSize;

    /// <summary>How many items the pages before this one hold.</summary>
    public int Skip => (Page - 1) * PageSize;
}
