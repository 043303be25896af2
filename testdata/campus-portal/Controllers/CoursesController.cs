using CampusPortal.Data;
using CampusPortal.Models;
using Microsoft.AspNetCore.Mvc;
using Microsoft.EntityFrameworkCore;

namespace CampusPortal.Controllers;

public class CoursesController : Controller
{
    private readonly CampusDb _db;

    public CoursesController(CampusDb db) => _db = db;

    public async Task<IActionResult> Index() => View(await _db.Courses.ToListAsync());

    [HttpPost, ValidateAntiForgeryToken]
    public async Task<IActionResult> Create(Course course)
    {
        if (!ModelState.IsValid) return View(course);
        _db.Courses.Add(course);
        await _db.SaveChangesAsync();
        return RedirectToAction(nameof(Index));
    }
}
