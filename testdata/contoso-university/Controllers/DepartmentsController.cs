using ContosoUniversity.Data;
using Microsoft.AspNetCore.Mvc;
using Microsoft.EntityFrameworkCore;

namespace ContosoUniversity.Controllers;

public class DepartmentsController : Controller
{
    private readonly SchoolContext _context;

    public DepartmentsController(SchoolContext context)
    {
        _context = context;
    }

    // GET: Departments
    public async Task<IActionResult> Index()
    {
        var departments = _context.Departments
            .Include(d => d.Courses)
            .OrderBy(d => d.Name)
            .AsNoTracking();
        return View(await departments.ToListAsync());
    }

    // GET: Departments/Details/5
    public async Task<IActionResult> Details(int? id)
    {
        if (id == null)
        {
            return NotFound();
        }

        var department = await _context.Departments
            .Include(d => d.Administrator)
            .Include(d => d.Courses)
            .AsNoTracking()
            .FirstOrDefaultAsync(d => d.DepartmentID == id);
        if (department == null)
        {
            return NotFound();
        }
        return View(department);
    }
}
