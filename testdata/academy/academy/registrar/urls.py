from django.urls import path

from . import views

urlpatterns = [
    path("students/", views.student_list, name="student_list"),
    path("students/new/", views.student_new, name="student_new"),
]
