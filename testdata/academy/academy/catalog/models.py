from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models


class Course(models.Model):
    code = models.CharField(max_length=12, unique=True)
    title = models.CharField(max_length=120)
    credits = models.PositiveSmallIntegerField(validators=[MinValueValidator(1), MaxValueValidator(5)])
