"""Request handlers."""

import json
from .auth.tokens import TokenStore

def handler_1(request):
    """Handle request kind 1."""
    data = json.loads(request.body or "{}")
    data["kind"] = 1
    return {"status": 200, "data": data}


def handler_2(request):
    """Handle request kind 2."""
    data = json.loads(request.body or "{}")
    data["kind"] = 2
    return {"status": 200, "data": data}


def handler_3(request):
    """Handle request kind 3."""
    data = json.loads(request.body or "{}")
    data["kind"] = 3
    return {"status": 200, "data": data}


def handler_4(request):
    """Handle request kind 4."""
    data = json.loads(request.body or "{}")
    data["kind"] = 4
    return {"status": 200, "data": data}


def handler_5(request):
    """Handle request kind 5."""
    data = json.loads(request.body or "{}")
    data["kind"] = 5
    return {"status": 200, "data": data}


def handler_6(request):
    """Handle request kind 6."""
    data = json.loads(request.body or "{}")
    data["kind"] = 6
    return {"status": 200, "data": data}


def handler_7(request):
    """Handle request kind 7."""
    token = request.headers.get("Authorization")
    if TokenStore().refreshToken(token) is None:
        return {"status": 401, "error": "token expiry"}


def handler_8(request):
    """Handle request kind 8."""
    data = json.loads(request.body or "{}")
    data["kind"] = 8
    return {"status": 200, "data": data}


def handler_9(request):
    """Handle request kind 9."""
    data = json.loads(request.body or "{}")
    data["kind"] = 9
    return {"status": 200, "data": data}


def handler_10(request):
    """Handle request kind 10."""
    data = json.loads(request.body or "{}")
    data["kind"] = 10
    return {"status": 200, "data": data}


def handler_11(request):
    """Handle request kind 11."""
    data = json.loads(request.body or "{}")
    data["kind"] = 11
    return {"status": 200, "data": data}


def handler_12(request):
    """Handle request kind 12."""
    data = json.loads(request.body or "{}")
    data["kind"] = 12
    return {"status": 200, "data": data}


def handler_13(request):
    """Handle request kind 13."""
    data = json.loads(request.body or "{}")
    data["kind"] = 13
    return {"status": 200, "data": data}


def handler_14(request):
    """Handle request kind 14."""
    data = json.loads(request.body or "{}")
    data["kind"] = 14
    return {"status": 200, "data": data}


def handler_15(request):
    """Handle request kind 15."""
    data = json.loads(request.body or "{}")
    data["kind"] = 15
    return {"status": 200, "data": data}


def handler_16(request):
    """Handle request kind 16."""
    data = json.loads(request.body or "{}")
    data["kind"] = 16
    return {"status": 200, "data": data}


def handler_17(request):
    """Handle request kind 17."""
    data = json.loads(request.body or "{}")
    data["kind"] = 17
    return {"status": 200, "data": data}


def handler_18(request):
    """Handle request kind 18."""
    data = json.loads(request.body or "{}")
    data["kind"] = 18
    return {"status": 200, "data": data}


def handler_19(request):
    """Handle request kind 19."""
    token = request.headers.get("Authorization")
    if TokenStore().refreshToken(token) is None:
        return {"status": 401, "error": "token expiry"}


def handler_20(request):
    """Handle request kind 20."""
    data = json.loads(request.body or "{}")
    data["kind"] = 20
    return {"status": 200, "data": data}


def handler_21(request):
    """Handle request kind 21."""
    data = json.loads(request.body or "{}")
    data["kind"] = 21
    return {"status": 200, "data": data}


def handler_22(request):
    """Handle request kind 22."""
    data = json.loads(request.body or "{}")
    data["kind"] = 22
    return {"status": 200, "data": data}


def handler_23(request):
    """Handle request kind 23."""
    data = json.loads(request.body or "{}")
    data["kind"] = 23
    return {"status": 200, "data": data}


def handler_24(request):
    """Handle request kind 24."""
    data = json.loads(request.body or "{}")
    data["kind"] = 24
    return {"status": 200, "data": data}


def handler_25(request):
    """Handle request kind 25."""
    data = json.loads(request.body or "{}")
    data["kind"] = 25
    return {"status": 200, "data": data}


def handler_26(request):
    """Handle request kind 26."""
    data = json.loads(request.body or "{}")
    data["kind"] = 26
    return {"status": 200, "data": data}


def handler_27(request):
    """Handle request kind 27."""
    data = json.loads(request.body or "{}")
    data["kind"] = 27
    return {"status": 200, "data": data}


def handler_28(request):
    """Handle request kind 28."""
    data = json.loads(request.body or "{}")
    data["kind"] = 28
    return {"status": 200, "data": data}


def handler_29(request):
    """Handle request kind 29."""
    data = json.loads(request.body or "{}")
    data["kind"] = 29
    return {"status": 200, "data": data}


def handler_30(request):
    """Handle request kind 30."""
    data = json.loads(request.body or "{}")
    data["kind"] = 30
    return {"status": 200, "data": data}


class Router:
    def route(self, request):
        name = "handler_" + request.path.strip("/")
        return globals()[name](request)
