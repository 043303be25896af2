import os.path, sys as system
from django.db import models, connection as c
from .utils import helper
from .. import sibling
from . import (a,
   b)
from x import *

class QuerySet(models.Model, Base):
    name = models.CharField(max_length=3)

    @property
    def filter(self, *a):
        def inner():
            pass
        return helper(a)

    class Meta:
        ordering = ["x"]

LIMIT = 3

def top():
    self.obj.save()
