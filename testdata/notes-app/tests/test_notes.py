from notes import create_app


def test_list_requires_sign_in():
    client = create_app().test_client()
    assert client.get("/notes/").status_code == 401
