using System.Diagnostics;
using ContosoUniversity.Data;
using ContosoUniversity.Models;
using ContosoUniversity.Models.SchoolViewModels;
using Microsoft.AspNetCore.Mvc;
using Microsoft.EntityFrameworkCore;

namespace ContosoUniversity.Controllers;

public class HomeController : Controller
{
    private readonly SchoolContext _context;

    public HomeController(SchoolContext context)
    {
        _context = context;
    }

    public IActionResult Index()
    {
        return View();
    }

    // GET: Home/About — student body statistics, by enrollment date.
    public async Task<IActionResult> About()
    {
        var groups = await _context.Students
            .GroupBy(s => s.EnrollmentDate)
            .Select(g => new EnrollmentDateGroup
            {
                EnrollmentDate = g.Key,
                StudentCount = g.Count(),
            })
            .OrderBy(g => g.EnrollmentDate)
            .AsNoTracking()
            .ToListAsync();
        return View(groups);
    }

    [ResponseCache(Duration = 0, Location = ResponseCacheLocation.None, NoStore = true)]
    public IActionResult Error()
    {
        return View(new ErrorViewModel { RequestId = Activity.Current?.Id ?? HttpContext.TraceIdentifier });
    }
}
