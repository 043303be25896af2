using ContosoUniversity.Data;
using ContosoUniversity.Models;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.Rendering;
using Microsoft.EntityFrameworkCore;

namespace ContosoUniversity.Controllers;

public class CoursesController : Controller
{
    private readonly SchoolContext _context;

    public CoursesController(SchoolContext context)
    {
        _context = context;
    }

    // GET: Courses
    public async Task<IActionResult> Index()
    {
        var courses = _context.Courses
            .Include(c => c.Department)
            .OrderBy(c => c.CourseID)
            .AsNoTracking();
        return View(await courses.ToListAsync());
    }

    // GET: Courses/Create
    public IActionResult Create()
    {
        PopulateDepartmentsDropDownList();
        return View();
    }

    // POST: Courses/Create
    [HttpPost]
    [ValidateAntiForgeryToken]
    public async Task<IActionResult> Create([Bind("CourseID,Credits,DepartmentID,Title")] Course course)
    {
        if (ModelState.IsValid)
        {
            if (await _context.Courses.AnyAsync(c => c.CourseID == course.CourseID))
            {
                ModelState.AddModelError(nameof(Course.CourseID), "A course with this number already exists.");
            }
            else
            {
                _context.Add(course);
                await _context.SaveChangesAsync();
                return RedirectToAction(nameof(Index));
            }
        }
        PopulateDepartmentsDropDownList(course.DepartmentID);
        return View(course);
    }

    // GET: Courses/Edit/5
    public async Task<IActionResult> Edit(int? id)
    {
        if (id == null)
        {
            return NotFound();
        }

        var course = await _context.Courses.AsNoTracking().FirstOrDefaultAsync(c => c.CourseID == id);
        if (course == null)
        {
            return NotFound();
        }
        PopulateDepartmentsDropDownList(course.DepartmentID);
        return View(course);
    }

    // POST: Courses/Edit/5
    [HttpPost, ActionName("Edit")]
    [ValidateAntiForgeryToken]
    public async Task<IActionResult> EditPost(int? id)
    {
        if (id == null)
        {
            return NotFound();
        }

        var course = await _context.Courses.FirstOrDefaultAsync(c => c.CourseID == id);
        if (course == null)
        {
            return NotFound();
        }

        if (await TryUpdateModelAsync(course, "", c => c.Credits, c => c.DepartmentID, c => c.Title))
        {
            try
            {
                await _context.SaveChangesAsync();
                return RedirectToAction(nameof(Index));
            }
            catch (DbUpdateException)
            {
                ModelState.AddModelError("", "Unable to save changes. Try again, and if the problem persists, see your system administrator.");
            }
        }
        PopulateDepartmentsDropDownList(course.DepartmentID);
        return View(course);
    }

    private void PopulateDepartmentsDropDownList(object? selectedDepartment = null)
    {
        var departments = _context.Departments.OrderBy(d => d.Name).AsNoTracking();
        ViewBag.DepartmentID = new SelectList(departments, "DepartmentID", "Name", selectedDepartment);
    }
}
