using CampusPortal.Data;
using CampusPortal.Models;
using Microsoft.AspNetCore.Mvc;
using Microsoft.EntityFrameworkCore;

namespace CampusPortal.Controllers;

public class LearnersController : Controller
{
    private readonly CampusDb _db;

    public LearnersController(CampusDb db) => _db = db;

    public async Task<IActionResult> Index(string? search)
    {
        var learners = _db.Learners.AsQueryable();
        if (!string.IsNullOrWhiteSpace(search))
        {
            learners = learners.Where(l => l.FamilyName.Contains(search));
        }
        return View(await learners.OrderBy(l => l.FamilyName).ToListAsync());
    }

    [HttpPost, ValidateAntiForgeryToken]
    public async Task<IActionResult> Create(Learner learner)
    {
        if (!ModelState.IsValid)
        {
            return View(learner);
        }
        _db.Learners.Add(learner);
        await _db.SaveChangesAsync();
        return RedirectToAction(nameof(Index));
    }
}
