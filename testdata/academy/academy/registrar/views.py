from django.shortcuts import redirect, render

from .forms import StudentForm
from .models import Student


def student_list(request):
    q = request.GET.get("q", "")
    students = Student.objects.filter(surname__icontains=q).order_by("surname")
    return render(request, "registrar/student_list.html", {"students": students, "q": q})


def student_new(request):
    form = StudentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        form.save()
        return redirect("student_list")
    return render(request, "registrar/student_form.html", {"form": form})
