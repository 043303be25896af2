import express from "express";
import { setupRouter } from "./router-setup";
import { settings } from "./settings";

const app = express();
app.use(express.json());
setupRouter(app);
app.listen(settings.port, () => console.log(`listening on :${settings.port}`));
