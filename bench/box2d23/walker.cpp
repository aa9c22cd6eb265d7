// Gymnasium's BipedalWalker-v3 world on Box2D 2.3's own sources, to measure what float32 and
// float64 arithmetic do to the agreement with pybox2d's traces (see compare.ts and the Box2D
// README). Reads the initial force, the terrain edges in creation order and the actions on stdin;
// prints the 24 observation values after reset and after every step.
#include <Box2D/Box2D.h>
#include <cstdio>
#include <cmath>
#include <vector>
static const double SCALE = 30.0, LEG_DOWN = -8 / SCALE, LEG_W = 8 / SCALE, LEG_H = 34 / SCALE;
static const double TERRAIN_STEP = 14 / SCALE, TERRAIN_HEIGHT = 400 / SCALE / 4;
struct Lidar : b2RayCastCallback {
  float fraction = 1;
  float32 ReportFixture(b2Fixture* f, const b2Vec2&, const b2Vec2&, float32 fr) override {
    if ((f->GetFilterData().categoryBits & 1) == 0) return -1;
    fraction = fr; return fr;
  }
};
int main() {
  double force; int nEdges;
  if (scanf("%lf %d", &force, &nEdges) != 2) return 1;
  b2World world(b2Vec2(0, -10));
  for (int i = 0; i < nEdges; i++) {
    double x1, y1, x2, y2; scanf("%lf %lf %lf %lf", &x1, &y1, &x2, &y2);
    b2BodyDef bd; b2Body* t = world.CreateBody(&bd);
    b2EdgeShape e; e.Set(b2Vec2((float)x1, (float)y1), b2Vec2((float)x2, (float)y2));
    b2FixtureDef fd; fd.shape = &e; fd.friction = 2.5f; fd.filter.categoryBits = 1;
    t->CreateFixture(&fd);
  }
  double initX = TERRAIN_STEP * 20 / 2, initY = TERRAIN_HEIGHT + 2 * LEG_H;
  b2BodyDef hb; hb.type = b2_dynamicBody; hb.position.Set((float)initX, (float)initY);
  b2Body* hull = world.CreateBody(&hb);
  double hp[5][2] = {{-30, 9}, {6, 9}, {34, 1}, {34, -8}, {-30, -8}};
  b2Vec2 hv[5]; for (int i = 0; i < 5; i++) hv[i].Set((float)(hp[i][0] / SCALE), (float)(hp[i][1] / SCALE));
  b2PolygonShape hs; hs.Set(hv, 5);
  b2FixtureDef hf; hf.shape = &hs; hf.density = 5; hf.friction = 0.1f; hf.filter.categoryBits = 0x20; hf.filter.maskBits = 1; hf.restitution = 0;
  hull->CreateFixture(&hf);
  hull->ApplyForceToCenter(b2Vec2((float)force, 0), true);
  std::vector<b2RevoluteJoint*> joints; std::vector<b2Body*> legs;
  for (int i : {-1, 1}) {
    b2BodyDef lb; lb.type = b2_dynamicBody; lb.position.Set((float)initX, (float)(initY - LEG_H / 2 - LEG_DOWN)); lb.angle = (float)(i * 0.05);
    b2Body* leg = world.CreateBody(&lb);
    b2PolygonShape ls; ls.SetAsBox((float)(LEG_W / 2), (float)(LEG_H / 2));
    b2FixtureDef lf; lf.shape = &ls; lf.density = 1; lf.restitution = 0; lf.filter.categoryBits = 0x20; lf.filter.maskBits = 1;
    leg->CreateFixture(&lf);
    b2RevoluteJointDef rj; rj.bodyA = hull; rj.bodyB = leg; rj.localAnchorA.Set(0, (float)LEG_DOWN); rj.localAnchorB.Set(0, (float)(LEG_H / 2));
    rj.referenceAngle = (float)((double)leg->GetAngle() - (double)hull->GetAngle());
    rj.enableMotor = true; rj.enableLimit = true; rj.maxMotorTorque = 80; rj.motorSpeed = i; rj.lowerAngle = -0.8f; rj.upperAngle = 1.1f;
    joints.push_back((b2RevoluteJoint*)world.CreateJoint(&rj)); legs.push_back(leg);
    b2BodyDef wb; wb.type = b2_dynamicBody; wb.position.Set((float)initX, (float)(initY - LEG_H * 3 / 2 - LEG_DOWN)); wb.angle = (float)(i * 0.05);
    b2Body* lower = world.CreateBody(&wb);
    b2PolygonShape ws; ws.SetAsBox((float)(0.8 * LEG_W / 2), (float)(LEG_H / 2));
    b2FixtureDef wf; wf.shape = &ws; wf.density = 1; wf.restitution = 0; wf.filter.categoryBits = 0x20; wf.filter.maskBits = 1;
    lower->CreateFixture(&wf);
    b2RevoluteJointDef rk; rk.bodyA = leg; rk.bodyB = lower; rk.localAnchorA.Set(0, (float)(-LEG_H / 2)); rk.localAnchorB.Set(0, (float)(LEG_H / 2));
    rk.referenceAngle = (float)((double)lower->GetAngle() - (double)leg->GetAngle());
    rk.enableMotor = true; rk.enableLimit = true; rk.maxMotorTorque = 80; rk.motorSpeed = 1; rk.lowerAngle = -1.6f; rk.upperAngle = -0.1f;
    joints.push_back((b2RevoluteJoint*)world.CreateJoint(&rk)); legs.push_back(lower);
  }
  int nSteps; scanf("%d", &nSteps);
  for (int s = 0; s <= nSteps; s++) {
    double a[4] = {0, 0, 0, 0};
    if (s > 0) for (int j = 0; j < 4; j++) { float v; scanf("%f", &v); a[j] = v; }
    for (int j = 0; j < 4; j++) {
      double sp = (j % 2 == 0 ? 4 : 6) * (a[j] > 0 ? 1 : a[j] < 0 ? -1 : 0);
      double ab = std::fabs(a[j]); if (ab > 1) ab = 1;
      joints[j]->SetMotorSpeed((float)sp); joints[j]->SetMaxMotorTorque((float)(80 * ab));
    }
    world.Step(1.0f / 50, 180, 60);
    b2Vec2 p = hull->GetPosition();
    double lid[10];
    for (int i = 0; i < 10; i++) {
      Lidar cb; b2Vec2 p2((float)(p.x + std::sin(1.5 * i / 10.0) * 160 / SCALE), (float)(p.y - std::cos(1.5 * i / 10.0) * 160 / SCALE));
      world.RayCast(&cb, p, p2); lid[i] = cb.fraction;
    }
    b2Vec2 v = hull->GetLinearVelocity();
    printf("%.9g %.9g %.9g %.9g", hull->GetAngle(), 2.0 * hull->GetAngularVelocity() / 50, 0.3 * v.x * (600 / SCALE) / 50, 0.3 * v.y * (400 / SCALE) / 50);
    auto touching = [](b2Body* b) { for (b2ContactEdge* ce = b->GetContactList(); ce; ce = ce->next) if (ce->contact->IsTouching()) return 1; return 0; };
    printf(" %.9g %.9g %.9g %.9g %d", joints[0]->GetJointAngle(), joints[0]->GetJointSpeed() / 4, joints[1]->GetJointAngle() + 1.0, joints[1]->GetJointSpeed() / 6, touching(legs[1]));
    printf(" %.9g %.9g %.9g %.9g %d", joints[2]->GetJointAngle(), joints[2]->GetJointSpeed() / 4, joints[3]->GetJointAngle() + 1.0, joints[3]->GetJointSpeed() / 6, touching(legs[3]));
    for (int i = 0; i < 10; i++) printf(" %.9g", lid[i]);
    printf("\n");
  }
}
