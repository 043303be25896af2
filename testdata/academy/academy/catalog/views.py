from django.shortcuts import render

from .models import Course


def course_list(request):
    return render(request, "catalog/course_list.html", {"courses": Course.objects.order_by("code")})
