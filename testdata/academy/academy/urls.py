from django.urls import include, path

urlpatterns = [
    path("registrar/", include("academy.registrar.urls")),
    path("catalog/", include("academy.catalog.urls")),
]
