using ContosoApi.Data;
using ContosoApi.Services;
using FluentValidation;
using Microsoft.EntityFrameworkCore;

var builder = WebApplication.CreateBuilder(args);

builder.Services.AddControllers();
builder.Services.AddEndpointsApiExplorer();
builder.Services.AddSwaggerGen();

builder.Services.AddDbContext<SchoolDbContext>(options =>
    options.UseSqlServer(builder.Configuration.GetConnectionString("School")));
builder.Services.AddScoped<StudentService>();

// Validators hold no per-request state, so one instance of each serves every
// request. Controllers take IValidator<T> and run it themselves.
builder.Services.AddValidatorsFromAssemblyContaining<Program>(ServiceLifetime.Singleton);
ValidatorOptions.Global.DefaultClassLevelCascadeMode = CascadeMode.Continue;
ValidatorOptions.Global.DefaultRuleLevelCascadeMode = CascadeMode.Stop;

var app = builder.Build();

if (app.Environment.IsDevelopment())
{
    app.UseSwagger();
    app.UseSwaggerUI();

    using var scope = app.Services.CreateScope();
    var db = scope.ServiceProvider.GetRequiredService<SchoolDbContext>();
    db.Database.EnsureCreated();
    SeedData.Initialize(db);
}

app.UseHttpsRedirection();
app.MapControllers();

app.Run();

public partial class Program
{
}
