using CampusPortal.Data;
using Microsoft.EntityFrameworkCore;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddControllersWithViews();
builder.Services.AddDbContext<CampusDb>(o => o.UseSqlite("Data Source=campus.db"));
var app = builder.Build();
app.MapDefaultControllerRoute();
app.Run();
