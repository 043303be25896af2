from django.db import models

from .checks import not_after_today, plausible_birth_year


class Student(models.Model):
    surname = models.CharField(max_length=60)
    first_name = models.CharField(max_length=60)
    birth_year = models.IntegerField(validators=[plausible_birth_year])
    enrollment_date = models.DateField(validators=[not_after_today])

    def __str__(self) -> str:
        return f"{self.first_name} {self.surname}"


class Enrolment(models.Model):
    student = models.ForeignKey(Student, on_delete=models.CASCADE, related_name="enrolments")
    course = models.ForeignKey("catalog.Course", on_delete=models.PROTECT)
    grade = models.CharField(max_length=1, blank=True)
