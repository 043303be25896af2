import express from "express";
import { mountRoutes } from "./router-setup";
import { config } from "./config";

const app = express();
app.use(express.json());
mountRoutes(app);

app.listen(config.port, () => {
  console.log(`storefront listening on ${config.port}`);
});
