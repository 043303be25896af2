using ContosoUniversity.Data;
using ContosoUniversity.Models.SchoolViewModels;
using Microsoft.AspNetCore.Mvc;
using Microsoft.EntityFrameworkCore;

namespace ContosoUniversity.Controllers;

public class InstructorsController : Controller
{
    private readonly SchoolContext _context;

    public InstructorsController(SchoolContext context)
    {
        _context = context;
    }

    // GET: Instructors?id=3&courseID=1050
    public async Task<IActionResult> Index(int? id, int? courseID)
    {
        var viewModel = new InstructorIndexData
        {
            Instructors = await _context.Instructors
                .Include(i => i.OfficeAssignment)
                .Include(i => i.CourseAssignments)
                    .ThenInclude(ca => ca.Course)
                        .ThenInclude(c => c.Department)
                .OrderBy(i => i.LastName)
                .AsNoTracking()
                .ToListAsync(),
        };

        if (id != null)
        {
            ViewData["InstructorID"] = id.Value;
            var instructor = viewModel.Instructors.Single(i => i.ID == id.Value);
            viewModel.Courses = instructor.CourseAssignments.Select(ca => ca.Course);
        }

        if (courseID != null)
        {
            ViewData["CourseID"] = courseID.Value;
            viewModel.Enrollments = await _context.Enrollments
                .Include(e => e.Student)
                .Where(e => e.CourseID == courseID.Value)
                .AsNoTracking()
                .ToListAsync();
        }

        return View(viewModel);
    }
}
