using System.Text;
using Foo;
namespace App.Models {
  public class User : Entity, IUser {
    [Required, EnrollmentDate]
    public DateTime Since { get; set; }
    [DisplayAttribute(Name = "x")]
    public User() {}
    public void Save() { repo.Store(this); Log(); var b = new StringBuilder(); }
  }
  interface IUser { void Save(); }
}
