using System.ComponentModel.DataAnnotations;

namespace CampusPortal.Models;

public class Course
{
    public int Id { get; set; }

    [Required, StringLength(80)]
    public string Title { get; set; } = "";

    [Range(1, 5)]
    public int Credits { get; set; }
}
